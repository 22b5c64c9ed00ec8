package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A 3-node ZooKeeper ensemble of the run's own (the kit's {@link ZooKeeperServer#ensemble}: each member in a JVM of
 * its own). Its server faults hit one member at a time: first a follower, then the leader (found with the
 * {@code srvr} four-letter word), in turn, since only the
 * leader's loss forces an election, during which no session can be served; a crashed member restarts from its own
 * files.
 */
final class ZooKeeperEnsembleTarget implements StoreTarget {

    private final List<ZooKeeperServer> members;
    private final NextMember next = new NextMember();
    private int faults;
    private String lastHit = "";

    ZooKeeperEnsembleTarget() {
        try {
            members = ZooKeeperServer.ensemble(3, Duration.ofMillis(500));
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not start a 3-node ZooKeeper ensemble", e);
        }
    }

    @Override
    public String store() {
        return "zookeeper (3-node ensemble)";
    }

    @Override
    public String uri(int ignoredPort) {
        return "zookeeper://" + members.stream().map(ZooKeeperServer::connectString).collect(Collectors.joining(","))
                + "?sessionTimeout=" + ZooKeeperTarget.SESSION.toMillis() + "ms&connectionTimeout=2s";
    }

    @Override
    public int port() {
        return members.get(0).port();
    }

    @Override
    public Duration holdBound() {
        return ZooKeeperTarget.SESSION;
    }

    /** The member the next fault hits: a follower, then the leader, in turn. */
    @Override
    public Optional<ServerControl> server() {
        return Optional.of(next);
    }

    @Override
    public String note() {
        return faults == 0 ? "" : "hit a follower, then the leader, in turn (last: " + lastHit + ")";
    }

    private ZooKeeperServer pick(boolean leader) {
        ZooKeeperServer follower = null;
        for (ZooKeeperServer member : members) {
            String mode = member.mode();
            if (mode.equals("leader") && leader) {
                return member;
            }
            if (mode.equals("follower") && follower == null) {
                follower = member;
            }
        }
        return follower != null ? follower : members.get(0);
    }

    @Override
    public void close() {
        members.forEach(ZooKeeperServer::close);
    }

    /**
     * A view of the member that the current fault hits: chosen when the fault starts ({@link #kill()},
     * {@link #stop()}, {@link #pause()}), and acted on again when it heals ({@link #restart()}, {@link #resume()}).
     * The target owns the members: closing the view closes nothing.
     */
    private final class NextMember implements ServerControl {

        private ZooKeeperServer hit;

        private ZooKeeperServer choose() {
            boolean wantLeader = faults++ % 2 == 1;
            hit = pick(wantLeader);
            lastHit = (wantLeader ? "leader " : "follower ") + hit.port();
            return hit;
        }

        private ZooKeeperServer current() {
            return hit != null ? hit : members.get(0);
        }

        @Override
        public int port() {
            return current().port();
        }

        @Override
        public boolean isAlive() {
            return current().isAlive();
        }

        @Override
        public void stop() {
            choose().stop();
        }

        @Override
        public void kill() {
            choose().kill();
        }

        @Override
        public void pause() {
            choose().pause();
        }

        @Override
        public void resume() {
            current().resume();
        }

        @Override
        public void restart() {
            current().restart();
        }

        @Override
        public void close() {
            // the target closes the members
        }
    }
}
