package io.distlock.tck;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.tck.process.LockClientProcess;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The set-up of the leadership rules that race a leader in another JVM: the remote client is elected first, then a
 * campaign of this JVM starts that puts each term it is elected to on a queue; both end after the rule's body.
 */
final class RemoteLeaderRace {

    /** What a rule does with the remote leader, its term, the local campaign and the local campaign's terms. */
    interface Body {
        void run(LockClientProcess remote, long remoteTerm, Leadership local, BlockingQueue<Long> elected)
                throws InterruptedException;
    }

    private RemoteLeaderRace() {
    }

    /** Runs {@code body} against a remote leader of lock {@code tck.name(label)}; skipped unless in separate JVMs. */
    static void run(TckContext tck, String label, Body body) throws InterruptedException {
        Tck.assumeSeparateJvms(tck);
        String name = tck.name(label);
        BlockingQueue<Long> elected = new LinkedBlockingQueue<>();
        try (LockClientProcess remote = LockClientProcess.start(tck.storeUri(), "leader")) {
            long remoteTerm = remote.lead(name, Tck.SHORT_LEASE, Tck.HANG);
            try (Leadership local = tck.client().leadership(name, Tck.renewed(), new LeadershipListener() {
                @Override
                public void elected(Lease term) {
                    elected.add(term.fencingToken());
                }

                @Override
                public void revoked(Lease term) {
                }
            })) {
                body.run(remote, remoteTerm, local, elected);
            }
        }
    }
}
