package io.distlock.chaos;

import io.distlock.tck.check.FencedRegister;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the histories of a SQL-fence run: the lock's columns as the lock checker counts them, and the database's
 * from the transactions. A commit is <em>stale</em> when, at the moment it was issued (SQL_COMMIT_INVOKE), a commit
 * with a higher token had already completed for the resource (SQL_COMMIT_OK): exactly what the fence exists to
 * refuse. Lost updates are the commits whose increment is missing from the counter's final value.
 */
final class SqlFenceChecker {

    private static final FencedRegister.State NO_REGISTER = new FencedRegister.State(0, 0, 0, 0, 0);

    private SqlFenceChecker() {
    }

    /** The numbers of one run; {@code counter} is the counter row's final value. */
    static SqlFenceResult check(String store, String database, String scenario, List<Event> events, long counter,
            int faults, List<Long> faultStarts, long faultEndNanos, boolean unsafeByDesign, String note) {
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(Event::nanos));
        ChaosResult lock = ChaosChecker.check(store, scenario, sorted, NO_REGISTER, faults, faultStarts, faultEndNanos,
                unsafeByDesign, note);
        long commits = count(sorted, "SQL_COMMIT_OK");
        return new SqlFenceResult(store, database, scenario, faults, lock.faultsMidHold(), lock.acquiredOk(),
                lock.undetectedOverlaps(), lock.detectedOverlaps(), lock.tokensReissued(), commits,
                count(sorted, "SQL_COMMIT_UNKNOWN"), count(sorted, "SQL_REFUSED"), count(sorted, "SQL_ERROR"),
                staleCommits(sorted), counter, Math.max(0, commits - counter), lock.recovery(), unsafeByDesign, note);
    }

    /** Commits that completed although a higher token's commit had completed before they were issued. */
    static long staleCommits(List<Event> sorted) {
        long highestCommitted = 0;
        Map<String, Long> highestAtInvoke = new HashMap<>();
        long stale = 0;
        for (Event e : sorted) {
            switch (e.type()) {
                case "SQL_COMMIT_INVOKE" -> highestAtInvoke.put(e.worker(), highestCommitted);
                case "SQL_COMMIT_OK" -> {
                    Long before = highestAtInvoke.remove(e.worker());
                    if (before != null && e.token() < before) {
                        stale++;
                    }
                    highestCommitted = Math.max(highestCommitted, e.token());
                }
                case "SQL_COMMIT_UNKNOWN" -> highestAtInvoke.remove(e.worker());
                default -> {
                }
            }
        }
        return stale;
    }

    private static long count(List<Event> events, String type) {
        return events.stream().filter(e -> e.type().equals(type)).count();
    }
}
