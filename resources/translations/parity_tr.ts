<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="tr_TR">
<context>
    <name>QObject</name>
    <message>
        <location filename="../../ui/src/chart/chart_export.cpp" line="+33"/>
        <source>Could not write %1: check that the folder exists and is writable.</source>
        <translation>%1 yazılamadı: klasörün var olduğunu ve yazılabilir olduğunu denetleyin.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Loss curves exported by Parity</source>
        <translation>Parity tarafından dışa aktarılan kayıp eğrileri</translation>
    </message>
    <message>
        <location filename="../../ui/src/compare/experiment_match.cpp" line="+27"/>
        <source> (test %1)</source>
        <translation> (test verisi %1)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>without hidden layers</source>
        <translation>gizli katman olmadan</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>data: %1 vs %2</source>
        <translation>veri: %1 / %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model: %1 vs %2</source>
        <translation>model: %1 / %2</translation>
    </message>
    <message>
        <location filename="../../ui/src/setups/setup_presets.cpp" line="+22"/>
        <source>Single GPU 1x256</source>
        <translation>Tek GPU 1x256</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One process, per-device batch 256 (global batch 256)</source>
        <translation>Tek süreç, cihaz başına toplu iş 256 (genel toplu iş 256)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Multi-GPU 2x128</source>
        <translation>Çoklu GPU 2x128</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Two processes of 128: the same global batch of 256</source>
        <translation>128&apos;lik iki süreç: aynı 256&apos;lık genel toplu iş</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TPU-pod-shaped 8x32 (8 CPU ranks; Parity cannot run XLA)</source>
        <translation>TPU pod biçimli 8x32 (8 CPU sırası; Parity XLA çalıştıramaz)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The batch shape of an 8-worker TPU pod, run as 8 CPU processes: global batch 256. Parity has no XLA backend.</source>
        <translation>8 işçili bir TPU pod&apos;unun toplu iş biçimi, 8 CPU süreci olarak çalıştırılır: genel toplu iş 256. Parity&apos;nin XLA arka ucu yoktur.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/src/window/error_advice.cpp" line="+24"/>
        <source>%1 (%n times)</source>
        <translation>
            <numerusform>%1 (%n kez)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The dataset could not be found: %1</source>
        <translation>Veri kümesi bulunamadı: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Install the dataset-fashion-mnist package (scripts/install-deps.sh), or point Experiment › Data path at a folder holding the four *-ubyte.gz files.</source>
        <translation>dataset-fashion-mnist paketini kurun (scripts/install-deps.sh) ya da Deney › Veri yolunu dört *-ubyte.gz dosyasını içeren bir klasöre yönlendirin.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The rendezvous port is already in use: %1</source>
        <translation>Buluşma (rendezvous) bağlantı noktası zaten kullanımda: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another run or program holds that port. Stop it, or leave MASTER_PORT unset so Parity picks a free port.</source>
        <translation>Bu bağlantı noktasını başka bir çalıştırma ya da program tutuyor. Onu durdurun ya da Parity boş bir bağlantı noktası seçsin diye MASTER_PORT değişkenini ayarlamadan bırakın.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The database cannot be written: %1</source>
        <translation>Veritabanına yazılamıyor: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick a writable location with File › New database, or fix the file&apos;s and its folder&apos;s permissions.</source>
        <translation>Dosya › Yeni veritabanı ile yazılabilir bir konum seçin ya da dosyanın ve klasörünün izinlerini düzeltin.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The database is busy: %1</source>
        <translation>Veritabanı meşgul: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another program holds a long write lock on it. Wait, or close that program; Parity retries on its own.</source>
        <translation>Başka bir program üzerinde uzun süreli bir yazma kilidi tutuyor. Bekleyin ya da o programı kapatın; Parity kendiliğinden yeniden dener.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A run ran out of memory: %1</source>
        <translation>Bir çalıştırmanın belleği tükendi: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lower the per-device batch or the number of processes, or run fewer setups at once.</source>
        <translation>Cihaz başına toplu işi ya da süreç sayısını düşürün veya aynı anda daha az kurulum çalıştırın.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A Parity program is missing: %1</source>
        <translation>Bir Parity programı eksik: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Build parity-cli and parity-worker (ninja parity-cli parity-worker) so they sit beside parity, or put them on PATH.</source>
        <translation>parity-cli ve parity-worker programlarını parity&apos;nin yanında duracak biçimde derleyin (ninja parity-cli parity-worker) ya da PATH&apos;e ekleyin.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The run failed without a message.</source>
        <translation>Çalıştırma bir ileti vermeden başarısız oldu.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hover the run&apos;s status in the Runs table for its error, fix the setup, and launch it again.</source>
        <translation>Hatayı görmek için Çalıştırmalar tablosunda çalıştırmanın durumunun üzerine gelin, kurulumu düzeltin ve yeniden başlatın.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check that the folder exists and is writable, or choose another.</source>
        <translation>Klasörün var olduğunu ve yazılabilir olduğunu denetleyin ya da başka bir klasör seçin.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The operation failed without a message.</source>
        <translation>İşlem bir ileti vermeden başarısız oldu.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Try again; if it fails again, the message says what was refused.</source>
        <translation>Yeniden deneyin; yine başarısız olursa ileti neyin reddedildiğini söyler.</translation>
    </message>
</context>
<context>
    <name>parity::analysis::Axis</name>
    <message>
        <location filename="../../engine/analysis/src/axis.cpp" line="+14"/>
        <source>Optimizer step</source>
        <translation>Optimize edici adımı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer step</source>
        <translation>optimize edici adımı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples seen</source>
        <translation>Görülen örnekler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>samples seen</source>
        <translation>görülen örnekler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Epoch</source>
        <translation>Dönem</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>epoch</source>
        <translation>dönem</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wall time</source>
        <translation>Geçen süre</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wall time (s)</source>
        <translation>geçen süre (sn)</translation>
    </message>
</context>
<context>
    <name>parity::ui::ChartPanel</name>
    <message>
        <location filename="../../ui/src/chart/chart_panel.cpp" line="+35"/>
        <source>Lo&amp;g y</source>
        <translation>Loga&amp;ritmik y</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-ran&amp;k</source>
        <translation>&amp;Sıra başına</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Samples seen is the axis on which setups with different global batches compare</source>
        <translation>Görülen örnekler, farklı genel toplu işlere sahip kurulumların karşılaştırıldığı eksendir</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>EMA weight (debiased); 0 draws the raw loss only. The raw curve stays faint beneath the smoothed one.</source>
        <translation>EMA ağırlığı (yanlılığı giderilmiş); 0 yalnızca ham kaybı çizer. Ham eğri, yumuşatılmış eğrinin altında soluk kalır.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Logarithmic loss axis (Ctrl+L)</source>
        <translation>Logaritmik kayıp ekseni (Ctrl+L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also draw each rank&apos;s local loss, in the run&apos;s colour, one dash pattern per rank (named in the legend)</source>
        <translation>Her sıranın yerel kaybını da çalıştırmanın renginde, sıra başına bir kesik çizgi deseniyle çiz (açıklamada adlandırılır)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reset zoom</source>
        <translation>Yakınlaştırmayı sıfırla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show all data again (Home, or double-click the chart)</source>
        <translation>Tüm verileri yeniden göster (Home ya da grafiğe çift tıklayın)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export</source>
        <translation>Dışa aktar</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>&amp;X axis:</source>
        <translation>&amp;X ekseni:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>S&amp;moothing:</source>
        <translation>Yu&amp;muşatma:</translation>
    </message>
</context>
<context>
    <name>parity::ui::ChartView</name>
    <message>
        <location filename="../../ui/src/chart/chart_view.cpp" line="+20"/>
        <source>Drag: zoom to a box · right-drag: pan · wheel: zoom x (Shift: y) · double-click: reset</source>
        <translation>Sürükle: kutuya yakınlaştır · sağ sürükle: kaydır · tekerlek: x yakınlaştır (Shift: y) · çift tıkla: sıfırla</translation>
    </message>
</context>
<context>
    <name>parity::ui::ComparePanel</name>
    <message>
        <location filename="../../ui/src/compare/compare_details.cpp" line="+30"/>
        <source>Prove (nothing trained here):</source>
        <translation>Kanıtla (burada hiçbir şey eğitilmedi):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prove, not testable alone:</source>
        <translation>Kanıtla, tek başına sınanamayanlar:</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Another experiment:</source>
        <translation>Başka bir deney:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its curve differs for that before anything below: compare it with a reference of the same data and model.</source>
        <translation>Eğrisi, aşağıdaki her şeyden önce bu yüzden farklıdır: onu aynı veri ve modele sahip bir referansla karşılaştırın.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The curves part at %1 samples seen: the first point above the allowed gap (the dashed line in the Δ plot).</source>
        <translation>Eğriler %1 görülen örnekte ayrılıyor: izin verilen farkın üstündeki ilk nokta (Δ çizimindeki kesikli çizgi).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Why:</source>
        <translation>Neden:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Differences:</source>
        <translation>Farklar:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Information:</source>
        <translation>Bilgi:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Proof (counterfactual runs):</source>
        <translation>Kanıt (karşı-olgusal çalıştırmalar):</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Nothing to prove: #%1 is %2 without seed groups</source>
        <translation>Kanıtlanacak bir şey yok: tohum grupları olmadan #%1 sonucu %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cause of #%1 can be tested alone</source>
        <translation>#%1 çalıştırmasının hiçbir nedeni tek başına sınanamaz</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>queued</source>
        <translation>kuyrukta</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proved #%1: %2</source>
        <translation>#%1 kanıtlandı: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proving #%1: %2 of %3 ended (%4)</source>
        <translation>#%1 kanıtlanıyor: %2/%3 bitti (%4)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>; not testable alone: %1</source>
        <translation>; tek başına sınanamaz: %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 trained another experiment than the reference (its data or model)</source>
        <translation>%1, referanstan farklı bir deney eğitti (verisi ya da modeli)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 run(s) compared, %2 different; noise floor from %3</source>
        <translation>%1 çalıştırma karşılaştırıldı, %2 farklı; gürültü tabanının kaynağı: %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the tolerance</source>
        <translation>tolerans</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>seed groups</source>
        <translation>tohum grupları</translation>
    </message>
    <message>
        <location filename="../../ui/src/compare/compare_panel.cpp" line="+69"/>
        <source>Compare</source>
        <translation>Karşılaştır</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prove</source>
        <translation>Kanıtla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Make it equivalent</source>
        <translation>Eşdeğer yap</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Config key</source>
        <translation>Yapılandırma anahtarı</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>This run</source>
        <translation>Bu çalıştırma</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reference</source>
        <translation>Referans</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The run every other drawn run is compared with, on samples seen</source>
        <translation>Çizilen diğer tüm çalıştırmaların görülen örnekler üzerinden karşılaştırıldığı çalıştırma</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Prove the selected run&apos;s diagnosis (parity-cli explain): train it with each cause aligned with the reference alone (then all at once), queued like any launch, and judge each again</source>
        <translation>Seçili çalıştırmanın tanısını kanıtla (parity-cli explain): onu her neden tek başına (sonra hepsi birden) referansla hizalanmış olarak, her başlatma gibi kuyruğa alıp eğit ve her birini yeniden değerlendir</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Select a compared run to read its verdict in full</source>
        <translation>Kararının tamamını okumak için karşılaştırılmış bir çalıştırma seçin</translation>
    </message>
    <message>
        <location line="+5"/>
        <location filename="../../ui/src/compare/compare_plot.cpp" line="+240"/>
        <source>Δ loss vs the reference</source>
        <translation>Referansa göre Δ kayıp</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Δ loss vs reference</source>
        <translation>Referansa göre Δ kayıp</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../ui/src/compare/compare_plot.cpp" line="+41"/>
        <source>Seed groups: mean and min–max band</source>
        <translation>Tohum grupları: ortalama ve min–maks bandı</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Reference:</source>
        <translation>Referans:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Plot:</source>
        <translation>Çizim:</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Not proved: run #%1 was deleted; compare again</source>
        <translation>Kanıtlanmadı: #%1 çalıştırması silindi; yeniden karşılaştırın</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Not proved: #%1 trained another experiment than the reference #%2 (%3), so its counterfactuals could not train against it. Prove it against a reference of its own data and model.</source>
        <translation>Kanıtlanmadı: #%1, referans #%2 çalıştırmasından başka bir deneyi eğitti (%3), bu yüzden karşı-olgusalları ona karşı eğitilemez. Onu kendi verisi ve modeliyle eğitilmiş bir referansa karşı kanıtlayın.</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+7"/>
        <source>Prove again</source>
        <translation>Yeniden kanıtla</translation>
    </message>
    <message numerus="yes">
        <location line="-6"/>
        <source>Run #%1 was proved already (%n counterfactual run(s)). Prove it again, training them all once more?</source>
        <translation>
            <numerusform>#%1 çalıştırması zaten kanıtlandı (%n karşı-olgusal çalıştırma). Hepsini bir kez daha eğiterek yeniden kanıtlansın mı?</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Queuing the counterfactuals of #%1…</source>
        <translation>#%1 için karşı-olgusal çalıştırmalar kuyruğa alınıyor…</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+35"/>
        <source>Draw at least two runs on the chart to compare</source>
        <translation>Karşılaştırmak için grafikte en az iki çalıştırma çizin</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Comparing…</source>
        <translation>Karşılaştırılıyor…</translation>
    </message>
    <message>
        <location filename="../../ui/src/compare/compare_plot.cpp" line="-167"/>
        <source>&lt;span style=&quot;color:gray&quot;&gt;&amp;#9478;&lt;/span&gt;&amp;nbsp;parts&amp;nbsp;at: where a run&apos;s Δ leaves the allowed gap (#N on the plot)</source>
        <translation>&lt;span style=&quot;color:gray&quot;&gt;&amp;#9478;&lt;/span&gt;&amp;nbsp;ayrılma&amp;nbsp;noktası: bir çalıştırmanın Δ değerinin izin verilen farkın dışına çıktığı yer (çizimde #N)</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>%1, %2 +%3</source>
        <translation>%1, %2 +%3</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>allowed gap: spread of seeds %1</source>
        <translation>izin verilen fark: tohumların yayılımı %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>samples seen</source>
        <translation>görülen örnekler</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>No seed groups: run one setup with several seeds</source>
        <translation>Tohum grubu yok: bir kurulumu birkaç tohumla çalıştırın</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: min–max of %2 seeds</source>
        <translation>%1: %2 tohumun min–maks aralığı</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>mean (spread %1)</source>
        <translation>ortalama (yayılım %1)</translation>
    </message>
    <message>
        <location filename="../../ui/src/compare/compare_remedy.cpp" line="+80"/>
        <location line="+78"/>
        <source>Queuing the remedy of #%1…</source>
        <translation>#%1 için çözüm kuyruğa alınıyor…</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Reading the remedy of #%1…</source>
        <translation>#%1 için çözüm okunuyor…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+102"/>
        <source>The remedy of #%1 cannot be read: %2</source>
        <translation>#%1 için çözüm okunamıyor: %2</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>Judged without seed groups, #%1 is %2: nothing to make equivalent</source>
        <translation>Tohum grupları olmadan değerlendirildiğinde #%1 sonucu %2: eşdeğer yapılacak bir şey yok</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No setting of #%1&apos;s shape changes the arithmetic: the gap is the summation order or a bug (Prove tells them apart)</source>
        <translation>#%1 çalıştırmasının biçimine ait hiçbir ayar aritmetiği değiştirmiyor: fark, toplama sırasından ya da bir hatadan kaynaklanıyor (Kanıtla bunları ayırt eder)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No setting of #%1&apos;s shape changes the arithmetic: the gap is noise no setting removes (Prove proves it against the band of the reference&apos;s seeds)</source>
        <translation>#%1 çalıştırmasının biçimine ait hiçbir ayar aritmetiği değiştirmiyor: fark, hiçbir ayarın gideremeyeceği gürültüdür (Kanıtla bunu referansın tohumlarının bandına karşı kanıtlar)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The remedy of #%1 is queued (#%2): its verdict comes in the Proof column</source>
        <translation>#%1 için çözüm kuyruğa alındı (#%2): kararı Kanıt sütununda görünecek</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The remedy of #%1 is queued or trained already (#%2): its verdict is in the Proof column</source>
        <translation>#%1 için çözüm zaten kuyrukta ya da eğitildi (#%2): kararı Kanıt sütununda</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Select a different run: Make it equivalent trains its remedy</source>
        <translation>Farklı bir çalıştırma seçin: Eşdeğer yap, onun çözümünü eğitir</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Make #%1 equivalent (parity-cli fix): add its remedy, %2, as the setup &quot;fix #%1&quot;, train it like any launch and judge it against the reference; the Proof column then says &quot;equivalent now&quot; or &quot;not equivalent&quot;</source>
        <translation>#%1 çalıştırmasını eşdeğer yap (parity-cli fix): çözümünü (%2) &quot;düzeltme #%1&quot; kurulumu olarak ekle, her başlatma gibi eğit ve referansa karşı değerlendir; ardından Kanıt sütunu &quot;artık eşdeğer&quot; ya da &quot;eşdeğer değil&quot; der</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Say how to make #%1 equivalent: it was trained elsewhere, so nothing is trained here (train it again with %2)</source>
        <translation>#%1 çalıştırmasının nasıl eşdeğer yapılacağını söyle: başka yerde eğitildi, bu yüzden burada hiçbir şey eğitilmez (%2 ile yeniden eğitin)</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Nothing trained for #%1: it was trained elsewhere (train it again with %2)</source>
        <translation>#%1 için hiçbir şey eğitilmedi: başka yerde eğitildi (%2 ile yeniden eğitin)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Nothing to make equivalent in #%1</source>
        <translation>#%1 içinde eşdeğer yapılacak bir şey yok</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remedy of #%1: %2 (#%3)</source>
        <translation>#%1 için çözüm: %2 (#%3)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fix queued</source>
        <translation>düzeltme kuyrukta</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Remedy run #%1 (%2): %3</source>
        <translation>Çözüm çalıştırması #%1 (%2): %3</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>(against the band of the reference under more seeds: %1)</source>
        <translation>(referansın daha fazla tohumla elde edilen bandına karşı: %1)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Make it equivalent (parity-cli fix):</source>
        <translation>Eşdeğer yap (parity-cli fix):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reading the remedy…</source>
        <translation>çözüm okunuyor…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the remedy is %1.</source>
        <translation>çözüm: %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes: %1</source>
        <translation>Değişiklikler: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not aligned: %1</source>
        <translation>Hizalanmayan: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Judged against the band of the reference&apos;s seeds: %1</source>
        <translation>Referansın tohumlarının bandına karşı değerlendirildi: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>this run</source>
        <translation>bu çalıştırma</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the reference</source>
        <translation>referans</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This run was trained elsewhere: train it again with %1 (your script&apos;s equivalents), import that run and compare. Nothing is trained here: %2 was imported from a log, and Parity&apos;s engine has neither its data nor its model.</source>
        <translation>Bu çalıştırma başka yerde eğitildi: onu %1 ile (betiğinizdeki karşılıklarıyla) yeniden eğitin, o çalıştırmayı içe aktarın ve karşılaştırın. Burada hiçbir şey eğitilmez: %2 bir günlükten içe aktarıldı ve Parity&apos;nin motorunda ne verisi ne de modeli var.</translation>
    </message>
</context>
<context>
    <name>parity::ui::DatabaseWorker</name>
    <message>
        <location filename="../../ui/src/database/database_worker.cpp" line="+65"/>
        <source>Opening %1</source>
        <translation>Açılıyor: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database cannot be written here, so it is open read-only: its runs can be viewed, compared and exported, not started or changed.</source>
        <translation>Bu veritabanına buradan yazılamıyor, bu yüzden salt okunur açıldı: çalıştırmaları görüntülenebilir, karşılaştırılabilir ve dışa aktarılabilir; başlatılamaz ya da değiştirilemez.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> Runs written since its last checkpoint may be missing: its -wal cannot be shared by this user (its -shm is not readable here).</source>
        <translation> Son denetim noktasından bu yana yazılan çalıştırmalar eksik olabilir: -wal dosyası bu kullanıcıyla paylaşılamıyor (-shm dosyası burada okunamıyor).</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+32"/>
        <location line="+142"/>
        <location filename="../../ui/src/database/database_worker_remedy.cpp" line="+48"/>
        <location line="+14"/>
        <source>No database is open.</source>
        <translation>Açık veritabanı yok.</translation>
    </message>
    <message>
        <location line="-129"/>
        <source>Renaming a run</source>
        <translation>Bir çalıştırma yeniden adlandırılıyor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Renaming run %1</source>
        <translation>%1 çalıştırması yeniden adlandırılıyor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saving notes</source>
        <translation>Notlar kaydediliyor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saving notes of run %1</source>
        <translation>%1 çalıştırmasının notları kaydediliyor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deleting a run</source>
        <translation>Bir çalıştırma siliniyor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deleting run %1</source>
        <translation>%1 çalıştırması siliniyor</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Keeping which runs are drawn</source>
        <translation>Çizilen çalıştırmalar kaydediliyor</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Keeping the setups</source>
        <translation>Kurulumlar kaydediliyor</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Marking run %1 %2</source>
        <translation>%1 çalıştırması işaretleniyor: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exporting curves</source>
        <translation>Eğriler dışa aktarılıyor</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Exporting curves to %1</source>
        <translation>Eğriler dışa aktarılıyor: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exporting runs</source>
        <translation>Çalıştırmalar dışa aktarılıyor</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Exporting runs to %1</source>
        <translation>Çalıştırmalar dışa aktarılıyor: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exporting the report</source>
        <translation>Rapor dışa aktarılıyor</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exporting the report to %1</source>
        <translation>Rapor dışa aktarılıyor: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+17"/>
        <source>Comparing runs</source>
        <translation>Çalıştırmalar karşılaştırılıyor</translation>
    </message>
</context>
<context>
    <name>parity::ui::EquivalentBatchPanel</name>
    <message>
        <location filename="../../ui/src/setups/equivalent_batch_panel.cpp" line="+47"/>
        <source>The single-device batch the setups are compared against: the first setup&apos;s global batch until you choose or type another</source>
        <translation>Kurulumların karşılaştırıldığı tek cihaz toplu işi: siz başka birini seçene veya yazana kadar ilk kurulumun genel toplu işi</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>A batch is a whole number of at least 1: the tables still use %1</source>
        <translation>Toplu iş en az 1 olan bir tam sayıdır: tablolar hâlâ %1 değerini kullanıyor</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Reference single-device batch:</source>
        <translation>Referans tek cihaz toplu işi:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Highlighted: differs from the reference, or samples even_batches repeats (hover for why)</source>
        <translation>Vurgulanan: referanstan farklı ya da even_batches örnekleri yineliyor (nedeni için üzerine gelin)</translation>
    </message>
</context>
<context>
    <name>parity::ui::ExperimentForm</name>
    <message>
        <location filename="../../ui/src/experiment/experiment_form.cpp" line="+99"/>
        <source>batch norm before each hidden activation</source>
        <translation>her gizli aktivasyondan önce toplu normalleştirme</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>all</source>
        <translation>tümü</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all epochs</source>
        <translation>tüm dönemler</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>none (logits from the table)</source>
        <translation>yok (logit&apos;ler tablodan)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>all columns but the target</source>
        <translation>hedef dışındaki tüm sütunlar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a torch.jit.script or trace module saved with .save()</source>
        <translation>.save() ile kaydedilmiş bir torch.jit.script ya da trace modülü</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Dataset</source>
        <translation>Veri kümesi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data</source>
        <translation>Veri</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the dataset folder or file</source>
        <translation>Veri kümesi klasörünü ya da dosyasını seçin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fashion-mnist, idx: the folder with the *-idx?-ubyte(.gz) files; csv, jsonl: the training file</source>
        <translation>fashion-mnist, idx: *-idx?-ubyte(.gz) dosyalarını içeren klasör; csv, jsonl: eğitim dosyası</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+174"/>
        <source>Test data</source>
        <translation>Test verisi</translation>
    </message>
    <message>
        <location line="-173"/>
        <source>Choose the test file</source>
        <translation>Test dosyasını seçin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A test file in the same format; leave empty for a validation split or none</source>
        <translation>Aynı biçimde bir test dosyası; doğrulama ayrımı kullanmak ya da hiç kullanmamak için boş bırakın</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Validation split</source>
        <translation>Doğrulama ayrımı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evaluate on the last fraction of the training data instead (0 = none)</source>
        <translation>Bunun yerine eğitim verisinin son kesiminde değerlendir (0 = yok)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pad id</source>
        <translation>Dolgu kimliği</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The input id that pads each batch to its longest sequence (labels pad with -100, which the loss ignores)</source>
        <translation>Her toplu işi en uzun dizisine kadar dolduran girdi kimliği (etiketler, kaybın yok saydığı -100 ile doldurulur)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task</source>
        <translation>Görev</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target column</source>
        <translation>Hedef sütun</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Feature columns</source>
        <translation>Öznitelik sütunları</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Comma-separated column names</source>
        <translation>Virgülle ayrılmış sütun adları</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training samples</source>
        <translation>Eğitim örnekleri</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use only the first N training samples (all = the whole set)</source>
        <translation>Yalnızca ilk N eğitim örneğini kullan (tümü = kümenin tamamı)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples</source>
        <translation>Örnekler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Noise σ</source>
        <translation>Gürültü σ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Train / evaluate</source>
        <translation>Eğit / değerlendir</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model file</source>
        <translation>Model dosyası</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the TorchScript file</source>
        <translation>TorchScript dosyasını seçin</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A TorchScript module (.pt); rank 0&apos;s parameters are broadcast at start</source>
        <translation>Bir TorchScript modülü (.pt); başlangıçta sıra 0&apos;ın parametreleri yayınlanır</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Holds</source>
        <translation>İçerik</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hidden layers</source>
        <translation>Gizli katmanlar</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>MLP widths, comma-separated</source>
        <translation>MLP genişlikleri, virgülle ayrılmış</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dropout</source>
        <translation>Dropout oranı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Probability after each hidden activation; masks follow the seed (and the rank with device_specific_seed)</source>
        <translation>Her gizli aktivasyondan sonraki olasılık; maskeler tohumu (ve device_specific_seed ile sırayı) izler</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Batch statistics over the per-device batch, so the process count changes them; the running statistics are broadcast from rank 0 as DDP does</source>
        <translation>Toplu iş istatistikleri cihaz başına toplu iş üzerinden hesaplanır, bu yüzden süreç sayısı onları değiştirir; yürüyen istatistikler DDP&apos;deki gibi sıra 0&apos;dan yayınlanır</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Embedding dim</source>
        <translation>Gömme boyutu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Width of a hidden embedding between the token table and the logits</source>
        <translation>Belirteç tablosu ile logit&apos;ler arasındaki gizli gömmenin genişliği</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Loss normalisation</source>
        <translation>Kayıp normalleştirmesi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per-batch: each micro-batch&apos;s mean loss / accumulation steps (Accelerate&apos;s plain loop); a short or heavily padded micro-batch weighs as much as a full one, so the process count changes the loss.
global: the summed loss over every valid item of the optimizer step on all ranks / their all-reduced count (transformers&apos; num_items_in_batch); every item weighs the same whatever the setup.</source>
        <translation>per-batch: her mikro toplu işin ortalama kaybı / biriktirme adımları (Accelerate&apos;in düz döngüsü); kısa ya da yoğun biçimde doldurulmuş bir mikro toplu iş, dolu bir tanesi kadar ağırlık taşır, bu yüzden süreç sayısı kaybı değiştirir.
global: optimize edici adımının tüm sıralardaki her geçerli öğesi üzerinden toplanan kayıp / bunların all-reduce ile toplanmış sayısı (transformers&apos;ın num_items_in_batch değeri); kurulum ne olursa olsun her öğe aynı ağırlığı taşır.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Optimizer</source>
        <translation>Optimize edici</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base learning rate</source>
        <translation>Temel öğrenme oranı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before lr scaling; each setup&apos;s effective lr is in the equivalent-batch table</source>
        <translation>lr ölçeklemesinden önce; her kurulumun etkin lr değeri eşdeğer toplu iş tablosundadır</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Momentum</source>
        <translation>Momentum katsayısı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weight decay</source>
        <translation>Ağırlık azalması</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduler</source>
        <translation>Zamanlayıcı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Advanced once per process per optimizer step (once with split_batches), so a schedule in single-process steps lasts the same number of samples</source>
        <translation>Her optimize edici adımında süreç başına bir kez ilerletilir (split_batches ile bir kez), böylece tek süreçli adımlarla yazılmış bir zamanlama aynı sayıda örnek boyunca sürer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warm-up steps</source>
        <translation>Isınma adımları</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>From lr 0, in scheduler steps</source>
        <translation>lr 0&apos;dan başlayarak, zamanlayıcı adımı cinsinden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Schedule length</source>
        <translation>Zamanlama uzunluğu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>num_training_steps in scheduler steps; default: (batches of the unsharded loader × epochs) // accumulation, as Accelerate&apos;s examples compute it</source>
        <translation>Zamanlayıcı adımı cinsinden num_training_steps; varsayılan: (parçalanmamış yükleyicinin toplu işleri × dönemler) // biriktirme, Accelerate örneklerinin hesapladığı gibi</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rising fraction</source>
        <translation>Yükselme payı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pct_start: the fraction of the schedule spent rising to the max lr</source>
        <translation>pct_start: zamanlamanın en büyük lr değerine yükselerek geçen payı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Initial lr ÷</source>
        <translation>Başlangıç lr ÷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>div_factor: the schedule starts at max lr / div_factor</source>
        <translation>div_factor: zamanlama en büyük lr / div_factor değerinden başlar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Final lr ÷</source>
        <translation>Son lr ÷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>final_div_factor: it ends at the initial lr / final_div_factor</source>
        <translation>final_div_factor: başlangıç lr / final_div_factor değerinde biter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decay every</source>
        <translation>Azaltma aralığı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decay factor</source>
        <translation>Azaltma katsayısı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Epochs</source>
        <translation>Dönem sayısı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max optimizer steps</source>
        <translation>En fazla optimize edici adımı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lr over samples</source>
        <translation>Örneklere göre lr</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The lr each optimizer step of the first setup uses, against samples seen</source>
        <translation>İlk kurulumun her optimize edici adımında kullandığı lr, görülen örneklere göre</translation>
    </message>
    <message>
        <location line="+90"/>
        <location line="+11"/>
        <source>;;All files (*)</source>
        <translation>;;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>TorchScript model</source>
        <translation>TorchScript modeli</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TorchScript modules (*.pt *.pth *.ts);;All files (*)</source>
        <translation>TorchScript modülleri (*.pt *.pth *.ts);;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <location filename="../../ui/src/experiment/experiment_form_command.cpp" line="+22"/>
        <source>Parity&apos;s engine</source>
        <translation>Parity&apos;nin motoru</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>your command</source>
        <translation>sizin komutunuz</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>python3 train.py --bs {per_device_batch_size} --lr {learning_rate} --seed {seed}</source>
        <translation>python3 train.py --bs {per_device_batch_size} --lr {learning_rate} --seed {seed}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the folder Parity was started in</source>
        <translation>Parity&apos;nin başlatıldığı klasör</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NAME=VALUE, NAME=VALUE</source>
        <translation>AD=DEĞER, AD=DEĞER</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trains</source>
        <translation>Eğitimi yapan</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parity&apos;s engine, or your own training program run once per setup</source>
        <translation>Parity&apos;nin motoru ya da her kurulum için bir kez çalıştırılan kendi eğitim programınız</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Command</source>
        <translation>Komut</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run without a shell; each value is one argument. Placeholders: %1. It prints PARITY {&quot;step&quot;: N, &quot;loss&quot;: L} lines (README: Your own training command).</source>
        <translation>Kabuk olmadan çalıştırılır; her değer bir argümandır. Yer tutucular: %1. Komut PARITY {&quot;step&quot;: N, &quot;loss&quot;: L} satırları yazdırır (README: Your own training command).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Working folder</source>
        <translation>Çalışma klasörü</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the folder the command runs in</source>
        <translation>Komutun çalışacağı klasörü seçin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Environment</source>
        <translation>Ortam</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Variables set for the command, NAME=VALUE separated by commas</source>
        <translation>Komut için ayarlanan değişkenler, virgülle ayrılmış AD=DEĞER biçiminde</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>auto: PARITY lines, else its files</source>
        <translation>otomatik: PARITY satırları, yoksa dosyaları</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PARITY lines on stdout</source>
        <translation>stdout&apos;taki PARITY satırları</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>trainer_state.json under {run_dir}</source>
        <translation>{run_dir} altındaki trainer_state.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorBoard files under {run_dir}</source>
        <translation>{run_dir} altındaki TensorBoard dosyaları</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Losses from</source>
        <translation>Kayıpların kaynağı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where the command&apos;s losses come from: its PARITY lines, or the files it writes under {run_dir}, followed while it runs</source>
        <translation>Komutun kayıplarının kaynağı: PARITY satırları ya da {run_dir} altına yazdığı ve çalışırken izlenen dosyalar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each setup runs</source>
        <translation>Her kurulum şunu çalıştırır</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Type the command that trains one setup (Command, on the Experiment tab)</source>
        <translation>Bir kurulumu eğiten komutu yazın (Deney sekmesinde, Komut)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The command cannot run: %1</source>
        <translation>Komut çalıştırılamıyor: %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The command&apos;s working folder</source>
        <translation>Komutun çalışma klasörü</translation>
    </message>
    <message>
        <location filename="../../ui/src/experiment/experiment_form_notes.cpp" line="+73"/>
        <source>choose the data to count its samples</source>
        <translation>örneklerini saymak için veriyi seçin</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>counting the samples of %1…</source>
        <translation>%1 içindeki örnekler sayılıyor…</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>not counted: the data cannot be read</source>
        <translation>sayılmadı: veri okunamıyor</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>default (needs the data&apos;s size)</source>
        <translation>varsayılan (verinin boyutu gerekir)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the preview needs the data&apos;s size</source>
        <translation>önizleme için verinin boyutu gerekir</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>default (%1)</source>
        <translation>varsayılan (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the preview needs a valid first setup</source>
        <translation>önizleme için geçerli bir ilk kurulum gerekir</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>First setup</source>
        <translation>İlk kurulum</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 optimizer steps of %3 samples</source>
        <translation>%1: %3 örneklik %2 optimize edici adımı</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, each %1 scheduler steps</source>
        <translation>, her biri %1 zamanlayıcı adımı</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; the schedule lasts %1 scheduler steps</source>
        <translation>; zamanlama %1 zamanlayıcı adımı sürer</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> and ends at optimizer step %1, before training does</source>
        <translation> ve eğitimden önce, %1. optimize edici adımında biter</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>choose a file to see its parameters and layers</source>
        <translation>parametrelerini ve katmanlarını görmek için bir dosya seçin</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>inspected once the config is valid</source>
        <translation>yapılandırma geçerli olunca incelenir</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>inspecting %1…</source>
        <translation>inceleniyor: %1…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 parameters; %2</source>
        <translation>%1 parametre; %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>
batch norm: its statistics follow the per-device batch</source>
        <translation>
toplu normalleştirme: istatistikleri cihaz başına toplu işi izler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>
dropout: its masks follow the seed</source>
        <translation>
dropout: maskeleri tohumu izler</translation>
    </message>
</context>
<context>
    <name>parity::ui::FactsDialog</name>
    <message>
        <location filename="../../ui/src/import/facts_dialog.cpp" line="+82"/>
        <source>Facts of run %1</source>
        <translation>%1 çalıştırmasının olguları</translation>
    </message>
    <message>
        <location line="-31"/>
        <location line="+5"/>
        <source>unknown</source>
        <translation>bilinmiyor</translation>
    </message>
    <message>
        <location filename="../../engine/config/include/parity/config/run_facts.h" line="+105"/>
        <source>Processes</source>
        <translation>Süreçler</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Per-device batch</source>
        <translation>Cihaz başına toplu iş</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Accumulation steps</source>
        <translation>Biriktirme adımları</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Learning rate</source>
        <translation>Öğrenme oranı</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>LR scaling</source>
        <translation>LR ölçeklemesi</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>LR schedule</source>
        <translation>LR takvimi</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Seed</source>
        <translation>Tohum</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Mixed precision</source>
        <translation>Karma hassasiyet</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Seedable sampler</source>
        <translation>Tohumlanabilir örnekleyici</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Threads per rank</source>
        <translation>Sıra başına iş parçacığı</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Training samples</source>
        <translation>Eğitim örnekleri</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Epochs</source>
        <translation>Dönem sayısı</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Model</source>
        <translation>Model türü</translation>
    </message>
    <message>
        <location filename="../../ui/src/import/facts_dialog.cpp" line="+39"/>
        <source>How run %1 (%2) trained. The verdict names causes only from known and derived facts; a value given here becomes known.</source>
        <translation>%1 çalıştırmasının (%2) nasıl eğitildiği. Karar, nedenleri yalnızca bilinen ve türetilmiş olgulardan belirtir; burada verilen bir değer bilinen olur.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1: a fact cannot be made unknown again</source>
        <translation>%1: bir olgu yeniden bilinmeyen yapılamaz</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: a positive number</source>
        <translation>%1: pozitif bir sayı</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: a whole number</source>
        <translation>%1: bir tam sayı</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: a positive whole number</source>
        <translation>%1: pozitif bir tam sayı</translation>
    </message>
</context>
<context>
    <name>parity::ui::ImportDialog</name>
    <message>
        <location filename="../../ui/src/import/import_dialog.cpp" line="+23"/>
        <source>&amp;Follow: keep reading while their training still writes</source>
        <translation>&amp;Takip et: eğitimleri yazmayı sürdürdükçe okumaya devam et</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Import runs</source>
        <translation>Çalıştırmaları içe aktar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runs trained elsewhere: a TensorBoard logdir (Accelerate, transformers, torch), a Hugging Face output_dir or trainer_state.json, an MLflow store, or a CSV/JSONL table of steps. Files are only read; facts the files do not say can be filled in later (Runs &gt; Edit facts).</source>
        <translation>Başka yerde eğitilmiş çalıştırmalar: bir TensorBoard logdir (Accelerate, transformers, torch), bir Hugging Face output_dir ya da trainer_state.json, bir MLflow deposu veya adımlardan oluşan bir CSV/JSONL tablosu. Dosyalar yalnızca okunur; dosyaların belirtmediği olgular sonradan doldurulabilir (Çalıştırmalar &gt; Olguları düzenle).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Path:</source>
        <translation>&amp;Yol:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a folder or file; several separated by ;</source>
        <translation>bir klasör ya da dosya; birden çoksa ayırıcı ;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F&amp;older…</source>
        <translation>&amp;Klasör…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F&amp;ile…</source>
        <translation>&amp;Dosya…</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The runs found and their facts appear here.</source>
        <translation>Bulunan çalıştırmalar ve olguları burada görünür.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>I&amp;mport</source>
        <translation>&amp;İçe aktar</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 run(s) found.</source>
        <translation>%1 çalıştırma bulundu.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Import the runs in a folder</source>
        <translation>Bir klasördeki çalıştırmaları içe aktar</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Import the runs in a file</source>
        <translation>Bir dosyadaki çalıştırmaları içe aktar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Logs (*.json *.csv *.jsonl *.db *tfevents*);;All files (*)</source>
        <translation>Günlükler (*.json *.csv *.jsonl *.db *tfevents*);;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 does not exist.</source>
        <translation>%1 mevcut değil.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading…</source>
        <translation>Okunuyor…</translation>
    </message>
</context>
<context>
    <name>parity::ui::LegendItem</name>
    <message>
        <location filename="../../ui/src/chart/chart_legend.cpp" line="+28"/>
        <location line="+23"/>
        <location line="+35"/>
        <source>ranks</source>
        <translation>sıralar</translation>
    </message>
</context>
<context>
    <name>parity::ui::LossChart</name>
    <message>
        <location filename="../../ui/src/chart/loss_chart.cpp" line="+172"/>
        <source>%1: loss is NaN or infinite at x = %2</source>
        <translation>%1: x = %2 noktasında kayıp NaN ya da sonsuz</translation>
    </message>
    <message>
        <location filename="../../ui/src/chart/loss_chart_draw.cpp" line="+90"/>
        <source>loss (log)</source>
        <translation>kayıp (log)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>loss</source>
        <translation>kayıp</translation>
    </message>
    <message>
        <location line="+287"/>
        <source>%1: step %2 · %3 samples · loss %4 · lr %5</source>
        <translation>%1: adım %2 · %3 örnek · kayıp %4 · lr %5</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> (ended)</source>
        <translation> (bitti)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location filename="../../ui/src/chart/loss_chart_style.cpp" line="+110"/>
        <source> (raw)</source>
        <translation> (ham)</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Run #%1 %2</source>
        <translation>Çalıştırma #%1 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>= #%1 %2</source>
        <translation>= #%1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Identical to run #%1 (%2): the losses agree within 0.1 % of their range wherever both have a point on the %3 axis. Drawn dashed over it.</source>
        <translation>#%1 çalıştırmasıyla (%2) aynı: ikisinin de %3 ekseninde noktası olan her yerde kayıplar, aralıklarının yüzde 0,1&apos;i içinde örtüşüyor. Onun üzerine kesikli çizildi.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Click to show its lines</source>
        <translation>Çizgilerini göstermek için tıklayın</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Click to hide its lines</source>
        <translation>Çizgilerini gizlemek için tıklayın</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>rank %1</source>
        <translation>sıra %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each run&apos;s rank %1 local loss is drawn in the run&apos;s colour, lighter, with this pattern</source>
        <translation>Her çalıştırmanın sıra %1 yerel kaybı, çalıştırmanın renginde, daha açık tonda ve bu desenle çizilir</translation>
    </message>
</context>
<context>
    <name>parity::ui::LrPreview</name>
    <message>
        <location filename="../../ui/src/experiment/lr_preview.cpp" line="+68"/>
        <source>no optimizer steps</source>
        <translation>optimize edici adımı yok</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>lr max %1</source>
        <translation>en büyük lr %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 samples seen</source>
        <translation>%1 görülen örnek</translation>
    </message>
</context>
<context>
    <name>parity::ui::MainWindow</name>
    <message>
        <location filename="../../ui/src/window/main_window.cpp" line="+61"/>
        <source>Parity</source>
        <translation>Parity</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Parity — %1</source>
        <translation>Parity — %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The database %1 could not be opened: %2</source>
        <translation>%1 veritabanı açılamadı: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Database</source>
        <translation>Veritabanı</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Reading runs failed (retrying): %1</source>
        <translation>Çalıştırmalar okunamadı (yeniden deneniyor): %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exported %1</source>
        <translation>Dışa aktarıldı: %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Launch</source>
        <translation>Başlat</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prove</source>
        <translation>Kanıtla</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Make it equivalent</source>
        <translation>Eşdeğer yap</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Reading curves failed: %1</source>
        <translation>Eğriler okunamadı: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Opening %1…</source>
        <translation>Açılıyor: %1…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>#%1 %2: %3 %4</source>
        <translation>#%1 %2: %3 %4</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run #%1 (%2) failed: %3</source>
        <translation>Çalıştırma #%1 (%2) başarısız oldu: %3</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n runs failed; hover here, or their status in the Runs table</source>
        <translation>
            <numerusform>%n çalıştırma başarısız oldu; buranın ya da Çalıştırmalar tablosundaki durumlarının üzerine gelin</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+84"/>
        <source>%n run(s) drawn</source>
        <translation>
            <numerusform>%n çalıştırma çizildi</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>, %n filtered out</source>
        <translation>
            <numerusform>, %n tanesi süzgeç dışında</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>The Runs filter &quot;%1&quot; leaves %n checked run(s) off the chart.</source>
        <translation>
            <numerusform>Çalıştırmalar süzgeci &quot;%1&quot;, işaretli %n çalıştırmayı grafiğin dışında bırakıyor.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source> · %n experiments</source>
        <translation>
            <numerusform> · %n deney</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The drawn runs train %n experiments (their data or model differ), first of each: %1. Type a data name in the Runs filter to draw one experiment.</source>
        <translation>
            <numerusform>Çizilen çalıştırmalar %n deney eğitiyor (verileri veya modelleri farklı), her birinin ilki: %1. Tek bir deneyi çizmek için Çalıştırmalar süzgecine bir veri adı yazın.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>, %n hidden</source>
        <translation>
            <numerusform>, %n gizli</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <location line="+42"/>
        <source>and %n more</source>
        <translation>
            <numerusform>ve %n tane daha</numerusform>
        </translation>
    </message>
    <message>
        <location line="-39"/>
        <location line="+34"/>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Not drawn: %1.
Check a run in the Runs table (or right-click it: Show on chart) to draw it; the choice is kept with the database.</source>
        <translation>Çizilmeyen: %1.
Çizmek için Çalıştırmalar tablosunda bir çalıştırmayı işaretleyin (ya da sağ tıklayın: Grafikte göster); seçim veritabanıyla birlikte saklanır.</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source> · %n running</source>
        <translation>
            <numerusform> · %n çalışıyor</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source> · %n queued</source>
        <translation>
            <numerusform> · %n kuyrukta</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source> · %n not on this axis</source>
        <translation>
            <numerusform> · %n bu eksende değil</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not on the samples axis (their setup is unknown, so no samples seen): %1. The Step axis shows them; Runs &gt; Edit facts gives their setup.</source>
        <translation>Örnekler ekseninde değil (kurulumları bilinmiyor, dolayısıyla görülen örnek yok): %1. Adım ekseni onları gösterir; Çalıştırmalar &gt; Olguları düzenle kurulumlarını belirtir.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Delete runs</source>
        <translation>Çalıştırmaları sil</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Delete %1 with its %n recorded step(s)? This cannot be undone.</source>
        <translation>
            <numerusform>%1, kaydedilmiş %n adımıyla birlikte silinsin mi? Bu işlem geri alınamaz.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+9"/>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run %1 is still queued or running.</source>
        <translation>%1 çalıştırması hâlâ kuyrukta ya da çalışıyor.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop it first (Ctrl+.), then delete it.</source>
        <translation>Önce durdurun (Ctrl+.), sonra silin.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Runs still going</source>
        <translation>Süren çalıştırmalar var</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n run(s) launched from this window are still running or queued.</source>
        <translation>
            <numerusform>Bu pencereden başlatılan %n çalıştırma hâlâ çalışıyor ya da kuyrukta.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Let them finish: the running ones keep training after the window closes; open this database again to watch them end. Runs not started yet are not started.
Stop them: each is stopped and recorded stopped.</source>
        <translation>Bitmelerine izin ver: çalışanlar pencere kapandıktan sonra da eğitime devam eder; bitişlerini izlemek için bu veritabanını yeniden açın. Henüz başlamamış çalıştırmalar başlatılmaz.
Durdur: her biri durdurulur ve durduruldu olarak kaydedilir.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Let them finish</source>
        <translation>&amp;Bitmelerine izin ver</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Stop them</source>
        <translation>&amp;Durdur</translation>
    </message>
    <message>
        <location filename="../../ui/src/window/main_window_actions.cpp" line="+47"/>
        <source>&amp;New database…</source>
        <translation>&amp;Yeni veritabanı…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create an empty database file and switch to it</source>
        <translation>Boş bir veritabanı dosyası oluştur ve ona geç</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open database…</source>
        <translation>Veritabanı &amp;aç…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switch to another database file</source>
        <translation>Başka bir veritabanı dosyasına geç</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import runs…</source>
        <translation>Çalıştırmaları &amp;içe aktar…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs trained elsewhere: TensorBoard logdirs, trainer_state.json, MLflow stores, CSV tables</source>
        <translation>Başka yerde eğitilmiş çalıştırmalar: TensorBoard logdir&apos;leri, trainer_state.json, MLflow depoları, CSV tabloları</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export &amp;curves as CSV…</source>
        <translation>&amp;Eğrileri CSV olarak dışa aktar…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Curves of the runs drawn on the chart, long format, ranks included</source>
        <translation>Grafikte çizilen çalıştırmaların eğrileri, uzun biçimde, sıralar dahil</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export &amp;runs table as CSV…</source>
        <translation>Çalıştırma &amp;tablosunu CSV olarak dışa aktar…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The runs listed (after the filter), with configs and finals</source>
        <translation>Listelenen çalıştırmalar (süzgeçten sonra), yapılandırmaları ve son değerleriyle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport report…</source>
        <translation>&amp;Raporu dışa aktar…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What Compare shows, as a report to send: HTML (one file, its plots inline), PDF (A4) or CSV</source>
        <translation>Karşılaştır panelinin gösterdiği, gönderilecek bir rapor olarak: HTML (çizimleri içinde tek dosya), PDF (A4) ya da CSV</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save chart as &amp;PNG…</source>
        <translation>Grafiği &amp;PNG olarak kaydet…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save chart as &amp;SVG…</source>
        <translation>Grafiği &amp;SVG olarak kaydet…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>Çı&amp;kış</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Launch setups</source>
        <translation>Kurulumları &amp;başlat</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start every setup as separate processes</source>
        <translation>Her kurulumu ayrı süreçler olarak başlat</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch the de&amp;mo</source>
        <translation>De&amp;moyu başlat</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fashion-MNIST MLP as 1x64, 2x32, 2x64 unscaled and 2x64 linear</source>
        <translation>1x64, 2x32, ölçeklenmemiş 2x64 ve doğrusal 2x64 olarak Fashion-MNIST MLP</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop &amp;all runs</source>
        <translation>&amp;Tüm çalıştırmaları durdur</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reset zoom</source>
        <translation>&amp;Yakınlaştırmayı sıfırla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Log y axis</source>
        <translation>&amp;Logaritmik y ekseni</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Per-rank curves</source>
        <translation>&amp;Sıra başına eğriler</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reset la&amp;yout</source>
        <translation>&amp;Düzeni sıfırla</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put every panel back where it was first: docked, Runs, Equivalent batch and Compare tabbed under the chart</source>
        <translation>Her paneli ilk yerine geri koy: yerleşik; Çalıştırmalar, Eşdeğer toplu iş ve Karşılaştır grafiğin altında sekmeli</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>&amp;File</source>
        <translation>&amp;Dosya</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Runs</source>
        <translation>Ça&amp;lıştırmalar</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;View</source>
        <translation>&amp;Görünüm</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show R&amp;uns</source>
        <translation>Ç&amp;alıştırmaları göster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show &amp;Equivalent batch</source>
        <translation>&amp;Eşdeğer toplu işi göster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show &amp;Compare</source>
        <translation>&amp;Karşılaştırmayı göster</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Help</source>
        <translation>&amp;Yardım</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard and mouse</source>
        <translation>&amp;Klavye ve fare</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Parity</source>
        <translation>Parity &amp;hakkında</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About Parity</source>
        <translation>Parity hakkında</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Parity&lt;/b&gt; %1&lt;br&gt;Compare loss curves across distributed training setups, and find out whether they differ because of arithmetic or because of a bug.</source>
        <translation>&lt;b&gt;Parity&lt;/b&gt; %1&lt;br&gt;Dağıtık eğitim kurulumları arasında kayıp eğrilerini karşılaştırın ve bunların aritmetik yüzünden mi yoksa bir hata yüzünden mi farklılaştığını öğrenin.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>New database</source>
        <translation>Yeni veritabanı</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+12"/>
        <source>Parity databases (*.db);;All files (*)</source>
        <translation>Parity veritabanları (*.db);;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>%1 exists: opened it as it is</source>
        <translation>%1 zaten var: olduğu gibi açıldı</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open database</source>
        <translation>Veritabanı aç</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export curves</source>
        <translation>Eğrileri dışa aktar</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+11"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export runs</source>
        <translation>Çalıştırmaları dışa aktar</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+6"/>
        <source>Export report</source>
        <translation>Raporu dışa aktar</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Compare runs first: the report is what the Compare panel shows (its reference and the runs judged against it).</source>
        <translation>Önce çalıştırmaları karşılaştırın: rapor, Karşılaştır panelinin gösterdiğidir (referansı ve ona göre değerlendirilen çalıştırmalar).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>HTML report (*.html);;PDF report (*.pdf);;CSV report (*.csv)</source>
        <translation>HTML raporu (*.html);;PDF raporu (*.pdf);;CSV raporu (*.csv)</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Writing the report of %n run(s) against #%1…</source>
        <translation>
            <numerusform>#%1 referansına göre %n çalıştırmanın raporu yazılıyor…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+1"/>
        <location line="+13"/>
        <source>Save chart</source>
        <translation>Grafiği kaydet</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Choose another folder.</source>
        <translation>Başka bir klasör seçin.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved %1</source>
        <translation>Kaydedildi: %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Keyboard and mouse</source>
        <translation>Klavye ve fare</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Chart&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;drag&lt;/td&gt;&lt;td&gt;zoom to a box&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;right- or middle-drag&lt;/td&gt;&lt;td&gt;pan&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;wheel / Shift+wheel&lt;/td&gt;&lt;td&gt;zoom x / zoom y&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;double-click, Home, Ctrl+0&lt;/td&gt;&lt;td&gt;reset zoom&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;arrows, + / −&lt;/td&gt;&lt;td&gt;pan, zoom&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+L / Ctrl+R&lt;/td&gt;&lt;td&gt;log y / per-rank curves&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Runs&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Return&lt;/td&gt;&lt;td&gt;launch the setups&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;F2 / Ctrl+I&lt;/td&gt;&lt;td&gt;rename / notes&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+. / Delete&lt;/td&gt;&lt;td&gt;stop / delete the selected runs&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+E / Ctrl+Shift+E&lt;/td&gt;&lt;td&gt;export curves / runs as CSV&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+1 / 2 / 3&lt;/td&gt;&lt;td&gt;the Runs / Equivalent batch / Compare panel&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Grafik&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;sürükle&lt;/td&gt;&lt;td&gt;kutuya yakınlaştır&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;sağ ya da orta tuşla sürükle&lt;/td&gt;&lt;td&gt;kaydır&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;tekerlek / Shift+tekerlek&lt;/td&gt;&lt;td&gt;x yakınlaştır / y yakınlaştır&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;çift tıkla, Home, Ctrl+0&lt;/td&gt;&lt;td&gt;yakınlaştırmayı sıfırla&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;oklar, + / −&lt;/td&gt;&lt;td&gt;kaydır, yakınlaştır&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+L / Ctrl+R&lt;/td&gt;&lt;td&gt;log y / sıra başına eğriler&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Çalıştırmalar&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Return&lt;/td&gt;&lt;td&gt;kurulumları başlat&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;F2 / Ctrl+I&lt;/td&gt;&lt;td&gt;yeniden adlandır / notlar&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+. / Delete&lt;/td&gt;&lt;td&gt;seçili çalıştırmaları durdur / sil&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+E / Ctrl+Shift+E&lt;/td&gt;&lt;td&gt;eğrileri / çalıştırmaları CSV olarak dışa aktar&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+1 / 2 / 3&lt;/td&gt;&lt;td&gt;Çalıştırmalar / Eşdeğer toplu iş / Karşılaştır paneli&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <location filename="../../ui/src/window/main_window_docks.cpp" line="+16"/>
        <source>Setups</source>
        <translation>Kurulumlar</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Runs</source>
        <translation>Çalıştırmalar</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Equivalent batch</source>
        <translation>Eşdeğer toplu iş</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compare</source>
        <translation>Karşılaştır</translation>
    </message>
    <message>
        <location filename="../../ui/src/window/main_window_import.cpp" line="+55"/>
        <source>Stop</source>
        <translation>Durdur</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop importing (a run being written is written whole or not at all) or stop following</source>
        <translation>İçe aktarmayı durdur (yazılmakta olan bir çalıştırma ya tamamen yazılır ya da hiç yazılmaz) ya da takibi durdur</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Importing run %1 of %2: %3</source>
        <translation>Çalıştırma içe aktarılıyor (%1/%2): %3</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Following %n run(s) as they are written</source>
        <translation>
            <numerusform>Yazıldıkça %n çalıştırma takip ediliyor</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+7"/>
        <location line="+40"/>
        <source>Import</source>
        <translation>İçe aktar</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>An import is still going (%1)</source>
        <translation>Bir içe aktarma hâlâ sürüyor (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop it in the status bar first, or wait for it to end</source>
        <translation>Önce durum çubuğundan durdurun ya da bitmesini bekleyin</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Reading %1…</source>
        <translation>Okunuyor: %1…</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>Import stopped; %n run(s) written</source>
        <translation>
            <numerusform>İçe aktarma durduruldu; %n çalıştırma yazıldı</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Imported %n run(s)</source>
        <translation>
            <numerusform>%n çalıştırma içe aktarıldı</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n run(s) imported; some could not be read</source>
        <translation>
            <numerusform>%n çalıştırma içe aktarıldı; bazıları okunamadı</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was imported</source>
        <translation>Hiçbir şey içe aktarılmadı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The details say which file and why</source>
        <translation>Ayrıntılar hangi dosya olduğunu ve nedenini belirtir</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+14"/>
        <source>Facts</source>
        <translation>Olgular</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Run %1&apos;s facts cannot be read: %2</source>
        <translation>%1 çalıştırmasının olguları okunamıyor: %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run %1&apos;s facts were not changed</source>
        <translation>%1 çalıştırmasının olguları değiştirilmedi</translation>
    </message>
    <message>
        <location filename="../../ui/src/window/main_window_setups.cpp" line="+73"/>
        <source>Run #%1&apos;s setup cannot be read: %2</source>
        <translation>#%1 çalıştırmasının kurulumu okunamıyor: %2</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Added setup %1 from run #%2</source>
        <translation>#%2 çalıştırmasından %1 kurulumu eklendi</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>the remedy&apos;s %1 %2 is %3 there</source>
        <translation>çözümün %1 %2 değeri orada %3</translation>
    </message>
    <message>
        <location line="-47"/>
        <location line="+1"/>
        <location line="+48"/>
        <source>unset</source>
        <translation>ayarlanmamış</translation>
    </message>
    <message>
        <location line="-51"/>
        <source>%1 %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Setup %1 from run #%2 changed the shared Experiment to run #%2&apos;s: %3. %4</source>
        <translation>#%2 çalıştırmasından gelen %1 kurulumu, paylaşılan deneyi #%2 çalıştırmasınınkiyle değiştirdi: %3. %4</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The other setup trains these values too.</source>
        <translation>Diğer kurulum da bu değerlerle eğitir.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The %1 other setups train these values too.</source>
        <translation>Diğer %1 kurulum da bu değerlerle eğitir.</translation>
    </message>
    <message numerus="yes">
        <location line="+32"/>
        <source>%n more</source>
        <translation>
            <numerusform>%n tane daha</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>run #%1&apos;s experiment differs from it in %2</source>
        <translation>#%1 çalıştırmasının deneyi ondan şu açılardan farklı: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fix #%1</source>
        <translation>düzeltme #%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The remedy of #%1 is the setup &quot;%2&quot; in the Setups panel; run #%3 trains it.</source>
        <translation>#%1 için çözüm, Kurulumlar panelindeki &quot;%2&quot; kurulumudur; #%3 çalıştırması onu eğitir.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The shared Experiment is left as it is: %1. Launch of &quot;%2&quot; trains the Experiment&apos;s values, run #%3 the remedy&apos;s.</source>
        <translation>Paylaşılan Deney olduğu gibi bırakıldı: %1. &quot;%2&quot; başlatıldığında Deney&apos;in değerleri eğitilir, #%3 çalıştırması ise çözümün değerlerini eğitir.</translation>
    </message>
</context>
<context>
    <name>parity::ui::ModelInspector</name>
    <message>
        <location filename="../../ui/src/experiment/model_inspector.cpp" line="+52"/>
        <source>parity-worker was not found (looked in %1), so the model cannot be inspected</source>
        <translation>parity-worker bulunamadı (bakılan yer: %1), bu yüzden model incelenemiyor</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>could not write a temporary config: %1</source>
        <translation>geçici yapılandırma yazılamadı: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>parity-worker could not be started: %1</source>
        <translation>parity-worker başlatılamadı: %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>parity-worker exited with code %1</source>
        <translation>parity-worker %1 koduyla çıktı</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>parity-worker&apos;s answer is not JSON: %1</source>
        <translation>parity-worker yanıtı JSON değil: %1</translation>
    </message>
</context>
<context>
    <name>parity::ui::NameOnlyIconProvider</name>
    <message>
        <location filename="../../ui/src/widgets/file_dialogs.cpp" line="+40"/>
        <source>File</source>
        <translation>Dosya</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 file</source>
        <translation>%1 dosyası</translation>
    </message>
</context>
<context>
    <name>parity::ui::ReferenceBatchModel</name>
    <message>
        <location filename="../../ui/src/setups/reference_batch_model.cpp" line="+61"/>
        <source>Global batch %1 on one device</source>
        <translation>Tek cihazda genel toplu iş %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 × %2%3 = global batch %4</source>
        <translation>%1 × %2%3 = genel toplu iş %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> × %1 accumulation</source>
        <translation> × %1 biriktirme</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 does not divide by %2: no per-device batch gives exactly this global batch</source>
        <translation>%1, %2 ile bölünmüyor: hiçbir cihaz başına toplu iş tam olarak bu genel toplu işi vermez</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Reference batch</source>
        <translation>Referans toplu iş</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Per-device batch on %1 process(es) with accumulation %2</source>
        <translation>%1 süreçte, %2 biriktirmeyle cihaz başına toplu iş</translation>
    </message>
</context>
<context>
    <name>parity::ui::RunImporter</name>
    <message>
        <location filename="../../ui/src/import/run_importer.cpp" line="+54"/>
        <source>parity-cli was not found (set PARITY_CLI)</source>
        <translation>parity-cli bulunamadı (PARITY_CLI değişkenini ayarlayın)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no runs found</source>
        <translation>çalıştırma bulunamadı</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>parity-cli was not found beside the window or on PATH (set PARITY_CLI)</source>
        <translation>parity-cli ne pencerenin yanında ne de PATH üzerinde bulundu (PARITY_CLI değişkenini ayarlayın)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>parity-cli could not be started: %1</source>
        <translation>parity-cli başlatılamadı: %1</translation>
    </message>
</context>
<context>
    <name>parity::ui::RunLauncher</name>
    <message>
        <location filename="../../ui/src/runs/run_launcher.cpp" line="+91"/>
        <source>not started: the window quit before its turn</source>
        <translation>başlatılmadı: pencere, sırası gelmeden kapandı</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>parity-cli was not found, so no run can start.</source>
        <translation>parity-cli bulunamadı, bu yüzden hiçbir çalıştırma başlatılamıyor.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Build it (ninja parity-cli) so it sits beside this parity executable, or put it on PATH, or set PARITY_CLI to its path. Looked in: %1.</source>
        <translation>parity-cli programını bu parity yürütülebilir dosyasının yanında duracak biçimde derleyin (ninja parity-cli), PATH&apos;e ekleyin ya da PARITY_CLI değişkenini onun yoluna ayarlayın. Bakılan yerler: %1.</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>The run could not be added to the database: %1</source>
        <translation>Çalıştırma veritabanına eklenemedi: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check that the database file is writable (File › New database to pick another place).</source>
        <translation>Veritabanı dosyasının yazılabilir olduğunu denetleyin (başka bir yer seçmek için Dosya › Yeni veritabanı).</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>parity-cli could not be started: %1</source>
        <translation>parity-cli başlatılamadı: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check that parity-cli is executable, or set PARITY_CLI to a working build.</source>
        <translation>parity-cli dosyasının yürütülebilir olduğunu denetleyin ya da PARITY_CLI değişkenini çalışan bir derlemeye ayarlayın.</translation>
    </message>
    <message>
        <location line="+43"/>
        <location filename="../../ui/src/runs/run_launcher_jobs.cpp" line="+87"/>
        <source>parity-cli exited with code %1</source>
        <translation>parity-cli %1 koduyla çıktı</translation>
    </message>
    <message>
        <location line="+5"/>
        <location filename="../../ui/src/runs/run_launcher_jobs.cpp" line="+52"/>
        <source>stopped</source>
        <translation>durduruldu</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>stopped before it started</source>
        <translation>başlamadan önce durduruldu</translation>
    </message>
    <message>
        <location filename="../../ui/src/runs/run_launcher_jobs.cpp" line="-54"/>
        <source>Run %1 is a Slurm job this window cannot follow: %2</source>
        <translation>%1 çalıştırması bu pencerenin izleyemediği bir Slurm işi: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The job goes on. Follow it with `parity-cli follow %1` where Slurm answers (squeue), or open this database there.</source>
        <translation>İş sürüyor. Slurm&apos;ün yanıt verdiği yerde (squeue) `parity-cli follow %1` ile izleyin ya da bu veritabanını orada açın.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Run %1&apos;s Slurm job could not be cancelled: %2</source>
        <translation>%1 çalıştırmasının Slurm işi iptal edilemedi: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>parity-cli stop exited with code %1</source>
        <translation>parity-cli stop %1 koduyla çıktı</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel it with scancel where Slurm answers, then follow it with `parity-cli follow %1`.</source>
        <translation>Slurm&apos;ün yanıt verdiği yerde scancel ile iptal edin, sonra `parity-cli follow %1` ile izleyin.</translation>
    </message>
</context>
<context>
    <name>parity::ui::RunsModel</name>
    <message>
        <location filename="../../ui/src/runs/runs_model.cpp" line="+208"/>
        <source>(unreadable config)</source>
        <translation>(okunamayan yapılandırma)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>queued</source>
        <translation>kuyrukta</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>running</source>
        <translation>çalışıyor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished</source>
        <translation>bitti</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failed</source>
        <translation>başarısız</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>diverged</source>
        <translation>ıraksadı</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>stopped</source>
        <translation>durduruldu</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>done</source>
        <translation>bitti</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>  ETA %1</source>
        <translation>  Tahmini kalan %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>imported: %1</source>
        <translation>içe aktarıldı: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+8"/>
        <source>your command</source>
        <translation>sizin komutunuz</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Imported from %1
Its facts say how it trained, each known, derived or unknown: Runs &gt; Edit facts fills or corrects them</source>
        <translation>İçe aktarıldığı yer: %1
Olguları nasıl eğitildiğini söyler; her biri bilinen, türetilmiş ya da bilinmeyendir: Çalıştırmalar &gt; Olguları düzenle bunları doldurur ya da düzeltir</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Launched as your own command</source>
        <translation>Kendi komutunuz olarak başlatıldı</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+1"/>
        <source>Trained by Parity on %1</source>
        <translation>Parity tarafından %1 üzerinde eğitildi</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>1 other run</source>
        <translation>1 başka çalıştırma</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 other runs</source>
        <translation>%1 başka çalıştırma</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>* ran at the same time as %1: they shared the cores, so this is lower than the run alone would measure</source>
        <translation>* %1 ile aynı anda çalıştı: çekirdekleri paylaştılar, bu yüzden bu değer, çalıştırmanın tek başına ölçeceğinden düşüktür</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Slurm job %1: %2</source>
        <translation>Slurm işi %1: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tick to draw run %1 on the chart</source>
        <translation>%1 çalıştırmasını grafikte çizmek için işaretleyin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Final evaluation loss: %1</source>
        <translation>Son değerlendirme kaybı: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Training samples per second, all ranks together</source>
        <translation>Saniye başına eğitim örneği, tüm sıralar birlikte</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Label</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Progress</source>
        <translation>İlerleme</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Setup</source>
        <translation>Kurulum</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Samples/s</source>
        <translation>Örnek/sn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Final loss</source>
        <translation>Son kayıp</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Accuracy</source>
        <translation>Doğruluk</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Data / source</source>
        <translation>Veri / kaynak</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>Notlar</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>processes × per-device batch, accumulation, = global batch, lr scaling, precision</source>
        <translation>süreçler × cihaz başına toplu iş, biriktirme, = genel toplu iş, lr ölçeklemesi, hassasiyet</translation>
    </message>
</context>
<context>
    <name>parity::ui::RunsPanel</name>
    <message>
        <location filename="../../ui/src/runs/runs_panel.cpp" line="+32"/>
        <source>Filter runs by label, status, setup, data or notes</source>
        <translation>Çalıştırmaları etikete, duruma, kuruluma, veriye ya da notlara göre süz</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Show on chart</source>
        <translation>Grafikte göster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide from chart</source>
        <translation>Grafikte gizle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Rename run</source>
        <translation>Çalıştırmayı &amp;yeniden adlandır</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit &amp;notes…</source>
        <translation>&amp;Notları düzenle…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Stop run</source>
        <translation>Çalıştırmayı &amp;durdur</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Delete run…</source>
        <translation>Çalıştırmayı s&amp;il…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit &amp;facts…</source>
        <translation>&amp;Olguları düzenle…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How an imported run trained: processes, batch, lr, seed, …</source>
        <translation>İçe aktarılmış bir çalıştırmanın nasıl eğitildiği: süreçler, toplu iş, lr, tohum, …</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+82"/>
        <source>New s&amp;etup from run</source>
        <translation>Çalıştırmadan yeni &amp;kurulum</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>Adds a setup with the run&apos;s values to the Setups tab</source>
        <translation>Kurulumlar sekmesine çalıştırmanın değerleriyle bir kurulum ekler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compare selected</source>
        <translation>Seçilenleri ka&amp;rşılaştır</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Draws and compares the selected runs: the reference is the Compare tab&apos;s when it is one of them, else the first</source>
        <translation>Seçilen çalıştırmaları çizer ve karşılaştırır: Karşılaştır sekmesinin referansı bunlardan biriyse o referanstır, değilse ilki</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>New s&amp;etup from run #%1</source>
        <translation>#%1 çalıştırmasından yeni &amp;kurulum</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A run Parity trained has its config as its facts; select one imported run</source>
        <translation>Parity&apos;nin eğittiği bir çalıştırmanın olguları yapılandırmasıdır; içe aktarılmış bir çalıştırma seçin</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send the run&apos;s process SIGTERM; it is marked stopped</source>
        <translation>Çalıştırmanın sürecine SIGTERM gönder; durduruldu olarak işaretlenir</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only queued or running runs launched from this window can be stopped here; stop others where they were started</source>
        <translation>Burada yalnızca bu pencereden başlatılmış, kuyrukta ya da çalışmakta olan çalıştırmalar durdurulabilir; diğerlerini başlatıldıkları yerde durdurun</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Notes</source>
        <translation>Notlar</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Notes on run %1:</source>
        <translation>%1 çalıştırmasıyla ilgili notlar:</translation>
    </message>
</context>
<context>
    <name>parity::ui::SetupForm</name>
    <message>
        <location filename="../../ui/src/setups/setup_form.cpp" line="+46"/>
        <source>CUDA (not in this build)</source>
        <translation>CUDA (bu derlemede yok)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This Parity was built against a LibTorch without CUDA. Rebuild against a CUDA LibTorch to run setups on GPUs.</source>
        <translation>Bu Parity, CUDA içermeyen bir LibTorch ile derlendi. Kurulumları GPU&apos;larda çalıştırmak için CUDA destekli bir LibTorch ile yeniden derleyin.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>linear (× processes)</source>
        <translation>doğrusal (× süreç sayısı)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sqrt (× √processes)</source>
        <translation>karekök (× √süreç sayısı)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no (fp32)</source>
        <translation>hayır (fp32)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fp16 (CUDA only)</source>
        <translation>fp16 (yalnızca CUDA)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> micro-batches</source>
        <translation> mikro toplu iş</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Label</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shown in the runs table and the chart&apos;s legend</source>
        <translation>Çalıştırmalar tablosunda ve grafiğin açıklamasında gösterilir</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>Tohum</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set_seed(seed): every generator; the shuffle too unless data_seed is set</source>
        <translation>set_seed(seed): tüm üreteçler; data_seed ayarlanmadıkça karıştırma da</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device</source>
        <translation>Cihaz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Processes</source>
        <translation>Süreçler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>num_processes: data-parallel ranks, each a separate process</source>
        <translation>num_processes: veri paralel sıralar, her biri ayrı bir süreç</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-device batch</source>
        <translation>Cihaz başına toplu iş</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples per rank per micro-batch (the global batch with split_batches)</source>
        <translation>Mikro toplu iş başına, sıra başına örnek sayısı (split_batches ile genel toplu iş)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LR scaling</source>
        <translation>LR ölçeklemesi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Effective lr = base lr × 1, × processes or × √processes</source>
        <translation>Etkin lr = temel lr × 1, × süreç sayısı ya da × √süreç sayısı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accumulation</source>
        <translation>Biriktirme</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient_accumulation_steps: micro-batches per optimizer step. The epoch&apos;s last group may be shorter and is then under-weighted, as in Accelerate.</source>
        <translation>gradient_accumulation_steps: optimize edici adımı başına mikro toplu iş sayısı. Dönemin son grubu daha kısa olabilir ve bu durumda, Accelerate&apos;teki gibi daha az ağırlık alır.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Precision</source>
        <translation>Hassasiyet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bf16 autocast on CPU or CUDA; fp16 needs CUDA (with a gradient scaler)</source>
        <translation>CPU ya da CUDA üzerinde bf16 autocast; fp16 için CUDA gerekir (gradyan ölçekleyiciyle)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The per-device batch is the global batch, cut into one slice per process (it must divide by the number of processes)</source>
        <translation>Cihaz başına toplu iş, süreç başına bir dilime bölünen genel toplu iştir (süreç sayısına bölünebilmelidir)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Complete the last batches by cycling from the start of the epoch, so every rank gets the same number of full batches (repeats a few samples)</source>
        <translation>Son toplu işleri dönemin başından döngüyle tamamla; böylece her sıra aynı sayıda dolu toplu iş alır (birkaç örnek yinelenir)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Drop the incomplete last group of batches</source>
        <translation>Eksik kalan son toplu iş grubunu at</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shuffle with a sampler seeded data_seed + epoch on every rank. Off is Accelerate&apos;s default: one process draws the order from the global generator, several from an unseeded one, so 1- and N-process runs see different orders</source>
        <translation>Her sırada data_seed + dönem ile tohumlanmış bir örnekleyiciyle karıştır. Kapalı olması Accelerate&apos;in varsayılanıdır: tek süreç dizilimi genel üreteçten, birden çok süreç ise tohumlanmamış bir üreteçten çeker; bu yüzden 1 ve N süreçli çalıştırmalar farklı dizilimler görür</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Batch norm&apos;s statistics over every rank&apos;s batch together (PyTorch&apos;s SyncBatchNorm), as one process on the global batch; needs Batch norm (Experiment) and even_batches</source>
        <translation>Toplu normalleştirme istatistikleri tüm sıraların toplu işleri üzerinden birlikte hesaplanır (PyTorch&apos;un SyncBatchNorm&apos;u), genel toplu iş üzerinde tek süreç gibi; Toplu normalleştirme (Deney) ve even_batches gerekir</translation>
    </message>
</context>
<context>
    <name>parity::ui::SetupPlanModel</name>
    <message>
        <location filename="../../ui/src/setups/setup_plan_model.cpp" line="+43"/>
        <source>Steps per epoch depend on the data file&apos;s length, known once the Experiment tab has counted its rows</source>
        <translation>Dönem başına adım sayısı veri dosyasının uzunluğuna bağlıdır; Deney sekmesi satırlarını saydığında bilinir</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Global batch %1 vs reference %2</source>
        <translation>Genel toplu iş %1, referans %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>: per-device batch %1 on %2 process(es) would match</source>
        <translation>: %2 süreçte cihaz başına %1 toplu iş eşleşirdi</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>: %1 does not divide by %2, so no per-device batch matches exactly</source>
        <translation>: %1, %2 ile bölünmüyor, bu yüzden hiçbir cihaz başına toplu iş tam olarak eşleşmiyor</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Effective lr %1 vs base lr %2 of the single-device reference (%3 scaling over %4 processes)</source>
        <translation>Etkin lr %1, tek cihazlı referansın temel lr değeri %2 (%4 süreç üzerinde %3 ölçekleme)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The scheduler advances %1 times per optimizer step, so a schedule written in single-process steps lasts the same number of samples</source>
        <translation>Zamanlayıcı her optimize edici adımında %1 kez ilerler; böylece tek süreçli adımlarla yazılmış bir zamanlama aynı sayıda örnek boyunca sürer</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>even_batches pads the epoch&apos;s last batches: each epoch the first %1 samples of its order are drawn twice (%2 drawn for %3 in the training set, %4 %), so they weigh double in the gradient and the curve ends apart from an unpadded setup&apos;s</source>
        <translation>even_batches dönemin son toplu işlerini doldurur: her dönemde dizilimin ilk %1 örneği iki kez çekilir (eğitim kümesindeki %3 örnek için %2 çekim, yüzde %4); bu yüzden gradyanda çift ağırlık taşırlar ve eğri, doldurulmamış bir kurulumunkinden ayrı biter</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Known once the CSV file is read: even_batches may repeat samples at the epoch&apos;s end</source>
        <translation>CSV dosyası okunduğunda bilinir: even_batches dönemin sonunda örnekleri yineleyebilir</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Setup</source>
        <translation>Kurulum</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Processes × batch</source>
        <translation>Süreç × toplu iş</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Global batch</source>
        <translation>Genel toplu iş</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Effective lr</source>
        <translation>Etkin lr</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opt. steps/epoch</source>
        <translation>Opt. adım/dönem</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sched. steps/opt. step</source>
        <translation>Zaml. adım/opt. adım</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Match ref.</source>
        <translation>Ref. eşleşmesi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeated/epoch</source>
        <translation>Yinelenen/dönem</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>Notlar</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>processes × per-device batch × accumulation</source>
        <translation>süreçler × cihaz başına toplu iş × biriktirme</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per-device batch × processes × accumulation</source>
        <translation>cihaz başına toplu iş × süreçler × biriktirme</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>base lr × 1, processes or √processes</source>
        <translation>temel lr × 1, süreç sayısı ya da √süreç sayısı</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer steps in one epoch of the training set</source>
        <translation>eğitim kümesinin bir dönemindeki optimize edici adımları</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scheduler steps per optimizer step (processes, or 1 with split_batches)</source>
        <translation>optimize edici adımı başına zamanlayıcı adımı (süreç sayısı ya da split_batches ile 1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per-device batch that keeps the global batch equal to the reference</source>
        <translation>genel toplu işi referansa eşit tutan cihaz başına toplu iş</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>samples even_batches draws twice per epoch to pad the last batches (Accelerate cycles from the start of the epoch&apos;s order)</source>
        <translation>even_batches ayarının son toplu işleri doldurmak için dönem başına iki kez çektiği örnekler (Accelerate, dönem diziliminin başından döngüyle alır)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>padding, dropped samples, a short last accumulation group</source>
        <translation>dolgu, atılan örnekler, kısa bir son biriktirme grubu</translation>
    </message>
</context>
<context>
    <name>parity::ui::SetupsModel</name>
    <message>
        <location filename="../../ui/src/setups/setups_model.cpp" line="+47"/>
        <source>Double-click to rename</source>
        <translation>Yeniden adlandırmak için çift tıklayın</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>setup</source>
        <translation>kurulum</translation>
    </message>
</context>
<context>
    <name>parity::ui::SetupsPanel</name>
    <message>
        <location filename="../../ui/src/setups/setups_panel.cpp" line="+68"/>
        <source>&amp;Launch</source>
        <translation>&amp;Başlat</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch &amp;selected</source>
        <translation>S&amp;eçilenleri başlat</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a setup, or pick a preset from the arrow&apos;s menu</source>
        <translation>Bir kurulum ekleyin ya da okun menüsünden hazır bir ayar seçin</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Duplicate</source>
        <translation>Çoğalt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>Kaldır</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Import accelerate config…</source>
        <translation>accelerate yapılandırmasını içe aktar…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fill the selected setup from the YAML file `accelerate config` writes (~/.cache/huggingface/accelerate/default_config.yaml): num_processes, mixed_precision, gradient_accumulation_steps, device</source>
        <translation>Seçili kurulumu `accelerate config` komutunun yazdığı YAML dosyasından doldur (~/.cache/huggingface/accelerate/default_config.yaml): num_processes, mixed_precision, gradient_accumulation_steps, device</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Setup</source>
        <translation>Kurulum</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Experiment (shared)</source>
        <translation>Deney (paylaşılan)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Runs started at the same time; the rest wait queued. Runs that share cores measure lower samples/s.</source>
        <translation>Aynı anda başlatılan çalıştırmalar; geri kalanlar kuyrukta bekler. Çekirdekleri paylaşan çalıştırmalar daha düşük örnek/sn ölçer.</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>This computer</source>
        <translation>Bu bilgisayar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slurm batch job (sbatch)</source>
        <translation>Slurm toplu işi (sbatch)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This computer: the window starts each run here.
Slurm batch job: Launch submits each run with sbatch and returns at once; the run shows PENDING with Slurm&apos;s reason, then its curve. The job goes on when the window closes; opening this database again follows it on. Stop cancels the job (scancel). The database&apos;s folder must be on a disk the cluster&apos;s nodes share.</source>
        <translation>Bu bilgisayar: pencere her çalıştırmayı burada başlatır.
Slurm toplu işi: Başlat her çalıştırmayı sbatch ile gönderir ve hemen döner; çalıştırma önce Slurm&apos;ün gerekçesiyle PENDING, sonra eğrisini gösterir. Pencere kapanınca iş sürer; bu veritabanını yeniden açmak onu izlemeyi sürdürür. Durdur işi iptal eder (scancel). Veritabanının klasörü kümenin düğümlerinin paylaştığı bir diskte olmalıdır.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Train on:</source>
        <translation>&amp;Eğitim yeri:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Partition:</source>
        <translation>Bölüm:</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+4"/>
        <source>default</source>
        <translation>varsayılan</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>The partition the job waits in (sbatch --partition)</source>
        <translation>İşin beklediği bölüm (sbatch --partition)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time limit:</source>
        <translation>Süre sınırı:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>e.g. 1:00:00</source>
        <translation>örn. 1:00:00</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sbatch --time, in Slurm&apos;s formats (30, 1:00:00, 1-0)</source>
        <translation>sbatch --time, Slurm&apos;ün biçimlerinde (30, 1:00:00, 1-0)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account:</source>
        <translation>Hesap:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account the job is charged to (sbatch --account)</source>
        <translation>İşin ücretlendirildiği hesap (sbatch --account)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GRES:</source>
        <translation>GRES (kaynaklar):</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>e.g. gpu:2</source>
        <translation>örn. gpu:2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Generic resources per node, e.g. GPUs (sbatch --gres)</source>
        <translation>Düğüm başına genel kaynaklar, örn. GPU&apos;lar (sbatch --gres)</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Run &amp;at once:</source>
        <translation>&amp;Aynı anda çalıştır:</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Accelerate config</source>
        <translation>Accelerate yapılandırması</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation>YAML dosyaları (*.yaml *.yml);;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Select a setup to import %1 into.</source>
        <translation>%1 dosyasını içe aktarmak için bir kurulum seçin.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 sets nothing Parity uses.</source>
        <translation>%1, Parity&apos;nin kullandığı hiçbir şeyi ayarlamıyor.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set from %1: %2.</source>
        <translation>%1 dosyasından ayarlanan: %2.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not used: %1.</source>
        <translation>Kullanılmayan: %1.</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>The model file cannot be trained: %1</source>
        <translation>Model dosyası eğitilemiyor: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Add a setup (or a preset) to launch.</source>
        <translation>Başlatmak için bir kurulum (ya da hazır ayar) ekleyin.</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n setup(s) need fixing before Launch (marked in the list).</source>
        <translation>
            <numerusform>%n kurulumun Başlat öncesinde düzeltilmesi gerekiyor (listede işaretli).</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The data cannot be read (marked under %1 on the Experiment tab).</source>
        <translation>Veri okunamıyor (Deney sekmesinde %1 altında işaretli).</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Start only the %n selected setup(s)</source>
        <translation>
            <numerusform>Yalnızca seçili %n kurulumu başlat</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select some of the setups (Ctrl+click) to start only those</source>
        <translation>Yalnızca bazı kurulumları başlatmak için onları seçin (Ctrl+tık)</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Start %n setup(s) as separate processes (Ctrl+Return)</source>
        <translation>
            <numerusform>%n kurulumu ayrı süreçler olarak başlat (Ctrl+Return)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parity::ui::VerdictTableModel</name>
    <message>
        <location filename="../../ui/src/compare/verdict_table_model.cpp" line="+54"/>
        <location line="+14"/>
        <source>fix queued</source>
        <translation>düzeltme kuyrukta</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>equivalent now</source>
        <translation>artık eşdeğer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not equivalent</source>
        <translation>eşdeğer değil</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>fix running</source>
        <translation>düzeltme çalışıyor</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fix %1</source>
        <translation>düzeltme %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fix not judged</source>
        <translation>düzeltme değerlendirilmedi</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Prove</source>
        <translation>Kanıtla</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>give it with Runs › Edit facts…</source>
        <translation>belirtin: Çalıştırmalar › Olguları düzenle…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its fact (Runs › Edit facts…)</source>
        <translation>olgusu (Çalıştırmalar › Olguları düzenle…)</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Another experiment (%1); %2</source>
        <translation>Başka bir deney (%1); %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>A throughput measured alongside other runs understates the scaling.</source>
        <translation>Diğer çalıştırmalarla birlikte ölçülen verim, ölçeklemeyi olduğundan düşük gösterir.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Run</source>
        <translation>Çalıştırma</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verdict</source>
        <translation>Karar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max |Δloss|</source>
        <translation>En büyük |Δkayıp|</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Final |Δloss|</source>
        <translation>Son |Δkayıp|</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Samples/s</source>
        <translation>Örnek/sn</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Per device</source>
        <translation>Cihaz başına</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scaling</source>
        <translation>Ölçekleme</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proof</source>
        <translation>Kanıt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why</source>
        <translation>Neden</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Training samples per second, all ranks together (* shared the cores)</source>
        <translation>Saniye başına eğitim örneği, tüm sıralar birlikte (* çekirdekleri paylaştı)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Samples per second per process</source>
        <translation>Süreç başına saniyede örnek sayısı</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Throughput on W processes / (W × the single-process throughput)</source>
        <translation>W süreçteki verim / (W × tek süreçli verim)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Counterfactual runs (Prove): each cause aligned alone; confirmed when that makes the run equivalent. The remedy (Make it equivalent, and Prove&apos;s &apos;all&apos;): the whole setup with the reference&apos;s arithmetic, &apos;equivalent now&apos; or &apos;not equivalent&apos;</source>
        <translation>Karşı-olgusal çalıştırmalar (Kanıtla): her neden tek başına hizalanır; bu, çalıştırmayı eşdeğer yapıyorsa neden doğrulanır. Çözüm (Eşdeğer yap ve Kanıtla&apos;nın &apos;tümü&apos; seçeneği): referansın aritmetiğiyle kurulumun tamamı; sonuç &apos;artık eşdeğer&apos; ya da &apos;eşdeğer değil&apos;</translation>
    </message>
</context>
</TS>
