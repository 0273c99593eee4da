#pragma once
/// Where Launch trains its setups: on this computer (parity-cli run, supervised by the window's
/// child) or as a Slurm batch job (parity-cli run --launcher slurm --submit: sbatch queues it and
/// returns; the job trains without the window, which follows it with parity-cli follow). The
/// launcher does not change a run's arithmetic (a submitted run's losses equal the local ones bit
/// for bit), so it is not a setup's property: it is chosen beside Launch, for what Launch starts.
/// Thread affinity: any (a value).

#include <QString>
#include <QStringList>

namespace parity::ui {

struct LaunchTarget {
  bool slurm = false;                      ///< submit to Slurm (sbatch) instead of training here
  QString partition, time, account, gres;  ///< passed to sbatch as given, where not empty

  /// The parity-cli run flags this target adds (none for this computer).
  QStringList cliArgs() const {
    if (!slurm) return {};
    QStringList args{QStringLiteral("--launcher"), QStringLiteral("slurm"),
                     QStringLiteral("--submit")};
    const auto add = [&args](const char* flag, const QString& value) {
      if (!value.trimmed().isEmpty()) args << QString::fromLatin1(flag) << value.trimmed();
    };
    add("--partition", partition);
    add("--time", time);
    add("--account", account);
    add("--gres", gres);
    return args;
  }
};

}  // namespace parity::ui
