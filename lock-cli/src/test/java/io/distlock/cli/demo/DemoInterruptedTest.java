package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.cli.DistlockMain;
import io.distlock.tck.process.JvmProcess;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * {@code distlock demo} stopped as by Ctrl-C (SIGTERM, so the shutdown hooks run) while its points scenario holds
 * names in a ZooKeeper store: the hook deletes the run's nodes before the JVM exits. About 10 s.
 */
class DemoInterruptedTest {

    @Test
    void ctrlCLeavesNoNodeOfTheRunInZooKeeper() throws Exception {
        String chroot = "demo-interrupted-" + UUID.randomUUID().toString().substring(0, 8);
        try (TestingServer zookeeper = new TestingServer(true);
                CuratorFramework client = CuratorFrameworkFactory.newClient(
                        zookeeper.getConnectString() + "/" + chroot, new RetryOneTime(100))) {
            client.start();
            JvmProcess demo = JvmProcess.builder("demo", DistlockMain.class).args("demo", "--scenario", "points",
                    "--store", "zookeeper://" + zookeeper.getConnectString() + "/" + chroot).start();
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> !demoNodes(client).isEmpty());
                ProcessHandle.of(demo.pid()).orElseThrow().destroy(); // SIGTERM, as Ctrl-C's SIGINT: hooks run
                assertThat(demo.waitFor(Duration.ofSeconds(30))).as("the demo exits after SIGTERM").isTrue();
                List<String> transcript = readAll(demo);
                assertThat(transcript).as("what it printed").anyMatch(l -> l.startsWith("Deleted the run's "));
                assertThat(demoNodes(client)).as("the run's nodes after Ctrl-C").isEmpty();
            } finally {
                demo.killNow();
            }
        }
    }

    /** The nodes of demo names under the store's parents (names start with "distlock-demo:"). */
    private static List<String> demoNodes(CuratorFramework client) throws Exception {
        return List.of("/distlock", "/distlock-semaphores").stream().flatMap(root -> {
            try {
                return client.checkExists().forPath(root) == null ? java.util.stream.Stream.<String>empty()
                        : client.getChildren().forPath(root).stream();
            } catch (Exception e) {
                throw new IllegalStateException("could not list " + root, e);
            }
        }).filter(n -> n.startsWith("distlock-demo:")).toList();
    }

    private static List<String> readAll(JvmProcess demo) {
        while (demo.nextLine(Duration.ofSeconds(5)).isPresent()) {
            // transcript() keeps every line read
        }
        return demo.transcript();
    }
}
