package io.distlock.cli.demo;

import java.util.List;

/**
 * One run of the rate-limited API scenario: what each service did and what the API counted.
 *
 * @param withSemaphore whether the services took a permit of the semaphore around each call
 * @param services what each service did, in service order
 * @param api the API's counts after the run
 * @param limit how many calls the API allows at once
 * @param nanos from the start signal to the last service's answer
 */
public record ApiCallRun(boolean withSemaphore, List<Caller> services, RateLimitedApi.Counts api, int limit,
        long nanos) {

    /**
     * What one service did.
     *
     * @param service its label
     * @param calls calls it made
     * @param overLimit of those, how many arrived while the API's limit was already in use
     * @param waitedNanos time spent waiting for permits (0 without the semaphore)
     * @param tokens the fencing tokens of its permits, in order (empty without the semaphore)
     */
    public record Caller(String service, int calls, int overLimit, long waitedNanos, List<Long> tokens) {
    }

    /** The most calls the API had in progress at once. */
    public int mostAtOnce() {
        return api.mostAtOnce();
    }

    /** True if the API never had more than its limit in progress and every call of every service was made. */
    public boolean withinLimit(int callsPerService) {
        return api.mostAtOnce() <= limit && api.overLimit() == 0
                && api.calls() == callsPerService * services.size()
                && services.stream().allMatch(s -> s.calls() == callsPerService);
    }
}
