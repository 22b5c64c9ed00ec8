package io.distlock.example;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The sample application on a ZooKeeper server started in this JVM. */
class ZooKeeperSampleApplicationTest extends SampleApplicationTestBase {

    private static TestingServer server;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) throws Exception {
        server = new TestingServer(true);
        registry.add("distlock.uri", () -> "zookeeper://" + server.getConnectString() + "/sample");
        names(registry);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }
}
