package io.distlock.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Ends a client's ZooKeeper session on the server, as if it had expired (the classic "kill session" technique). */
final class Sessions {

    private Sessions() {
    }

    /**
     * Joins {@code client}'s session from a second handle and closes that handle: the server ends the session at once
     * (its ephemeral nodes go) and {@code client} finds it expired when it reconnects.
     */
    static void expire(CuratorFramework client, String connectString) throws Exception {
        ZooKeeper victim = client.getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, victim.getSessionId(), victim.getSessionPasswd());
        try {
            if (!connected.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("could not join the session to end it");
            }
        } finally {
            twin.close();
        }
    }
}
