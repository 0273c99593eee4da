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
  ::setenv(kGlooInterfaceVar, "eth7", 1);
  EXPECT_EQ(gloo_binding("127.0.0.1", 29500), "interface eth7 (GLOO_SOCKET_IFNAME)");
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
