package io.distlock.zookeeper;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingZooKeeperServer;
import org.apache.zookeeper.server.quorum.Follower;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * Holds an in-process ensemble follower behind its leader for a while: the follower reads nothing its leader sends
 * (proposals, commits, sync replies) and answers its clients from a data tree that no longer moves. A test-only hook:
 * it takes the lock the follower's thread holds to read each packet from the leader ({@code Learner.readPacket}
 * synchronises on the leader's input stream), reached by reflection into Curator's and ZooKeeper's server classes.
 */
final class FollowerLag implements AutoCloseable {

    private final CountDownLatch taken = new CountDownLatch(1);
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread holder;

    private FollowerLag(Object leaderInput, Duration atMost) {
        holder = new Thread(() -> {
            synchronized (leaderInput) {
                taken.countDown();
                try {
                    caughtUp.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "follower-lag");
        holder.setDaemon(true);
    }

    /** Starts holding {@code server} (a follower) behind, for at most {@code atMost} or until {@link #close()}. */
    static FollowerLag start(TestingZooKeeperServer server, Duration atMost) throws Exception {
        Method getMain = TestingZooKeeperServer.class.getDeclaredMethod("getMain");
        getMain.setAccessible(true);
        Object main = getMain.invoke(server);
        // Curator runs an ensemble member as ZooKeeper's embedded server, which runs a QuorumPeerMain
        QuorumPeerMain peerMain = main instanceof QuorumPeerMain direct ? direct
                : (QuorumPeerMain) field(field(main, "zooKeeperEmbedded"), "maincluster");
        QuorumPeer peer = (QuorumPeer) field(peerMain, "quorumPeer");
        Follower follower = peer.follower;
        if (follower == null) {
            throw new IllegalStateException(server.getInstanceSpec() + " is not a follower");
        }
        FollowerLag lag = new FollowerLag(field(follower, "leaderIs"), atMost);
        lag.holder.start();
        if (!lag.taken.await(30, TimeUnit.SECONDS)) {
            lag.close();
            throw new IllegalStateException("the follower's reader never let go of its leader input");
        }
        return lag;
    }

    /** The value of the field {@code name} of {@code target}, declared by its class or a superclass. */
    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException notHere) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name + " in " + target.getClass());
    }

    /** Lets the follower read on: it applies what it missed in order. */
    @Override
    public void close() {
        caughtUp.countDown();
        try {
            holder.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
