package io.distlock.cli.demo;

import java.nio.file.Path;

/**
 * The demo's stand-in for a partner API that allows only a few calls at once: it keeps, in a file every service
 * shares, how many calls are in flight, the most it has seen at once, how many calls it served and how many arrived
 * while its limit was already in use (the calls a real API would answer with 429). Each count changes in one atomic
 * step, as the API's own server would count them; what the demo shows is whether the callers kept to the limit.
 */
final class RateLimitedApi {

    private final LockedFile file;

    /** The API whose counts live at {@code path}. */
    RateLimitedApi(Path path) {
        this.file = new LockedFile(path);
    }

    /** Clears the counts before a run. */
    void reset() {
        file.write(new Counts(0, 0, 0, 0).format());
    }

    /** The counts now. */
    Counts counts() {
        return Counts.parse(file.read());
    }

    /**
     * One call: arrives (counted in flight, noted as over the limit if {@code limit} calls were in flight already),
     * takes {@code callMs}, and leaves.
     *
     * @return true if the call arrived within the limit
     */
    boolean call(int limit, long callMs) throws InterruptedException {
        boolean[] within = new boolean[1];
        file.update(old -> {
            Counts c = Counts.parse(old);
            within[0] = c.inFlight() < limit;
            int now = c.inFlight() + 1;
            return new Counts(now, Math.max(c.mostAtOnce(), now), c.calls() + 1,
                    c.overLimit() + (within[0] ? 0 : 1)).format();
        });
        try {
            Thread.sleep(callMs); // the API's work on the call
        } finally {
            file.update(old -> {
                Counts c = Counts.parse(old);
                return new Counts(c.inFlight() - 1, c.mostAtOnce(), c.calls(), c.overLimit()).format();
            });
        }
        return within[0];
    }

    /**
     * What the API counted.
     *
     * @param inFlight calls in progress now
     * @param mostAtOnce the most calls it had in progress at once
     * @param calls calls that arrived
     * @param overLimit calls that arrived while the limit was already in use
     */
    record Counts(int inFlight, int mostAtOnce, int calls, int overLimit) {

        static Counts parse(String text) {
            String[] f = text.strip().split(" ");
            return new Counts(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                    Integer.parseInt(f[3]));
        }

        String format() {
            return inFlight + " " + mostAtOnce + " " + calls + " " + overLimit;
        }
    }
}
