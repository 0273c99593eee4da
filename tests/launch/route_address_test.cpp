// The address a multi-node rank binds Gloo to: the local end of the route to the master (the
// two-namespace test runs it across a veth pair; here, loopback and what is refused).
#include <gtest/gtest.h>
#include <parity/launch/launch_error.h>
#include <parity/launch/route_address.h>
#include <stdlib.h>

#include <string>

namespace parity::launch {
namespace {

TEST(RouteAddress, TheLocalEndOfTheRouteToTheMaster) {
  EXPECT_EQ(route_address("127.0.0.1", 29500), "127.0.0.1");
  const std::string local = route_address("localhost", 29500);
  EXPECT_TRUE(local.rfind("127.", 0) == 0 || local == "::1") << local;
  ::unsetenv(kGlooInterfaceVar);
  EXPECT_EQ(gloo_binding("127.0.0.1", 29500), "127.0.0.1, the address that routes to 127.0.0.1");
  ::setenv(kGlooInterfaceVar, "lo", 1);
  EXPECT_EQ(gloo_binding("127.0.0.1", 29500), "127.0.0.1 on interface lo (GLOO_SOCKET_IFNAME)");
  ::unsetenv(kGlooInterfaceVar);
}

// An interface named by the flag wins over GLOO_SOCKET_IFNAME; one that is not there is refused
// naming who chose it and the interfaces there are (Gloo would fail in the rank, after the row).
TEST(RouteAddress, AnInterfaceNamedIsItsAddressOrRefused) {
  EXPECT_EQ(interface_address("lo"), "127.0.0.1");
  ::setenv(kGlooInterfaceVar, "nosuch1", 1);
  EXPECT_EQ(gloo_binding("10.0.0.1", 29500, "lo", "--network-interface"),
            "127.0.0.1 on interface lo (--network-interface)");
  for (const auto& [ifname, named_by] :
       {std::pair<std::string, std::string>{"nosuch0", "--network-interface"},
        std::pair<std::string, std::string>{"", "GLOO_SOCKET_IFNAME"}}) {
    try {
      gloo_binding("127.0.0.1", 29500, ifname, named_by);
      ADD_FAILURE() << "an interface that is not there was accepted";
    } catch (const LaunchError& e) {
      const std::string name = ifname.empty() ? "nosuch1" : ifname;
      EXPECT_EQ(std::string(e.what()).rfind(named_by + " " + name + ": no network interface " +
                                                name + " on this machine (it has ",
                                            0),
                0u)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("lo"), std::string::npos) << e.what();
    }
  }
  ::unsetenv(kGlooInterfaceVar);
}

TEST(RouteAddress, AMasterThatCannotBeResolvedIsNamed) {
  try {
    route_address("no-such-host.invalid", 29500);
    FAIL() << "resolved";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-host.invalid"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parity::launch
