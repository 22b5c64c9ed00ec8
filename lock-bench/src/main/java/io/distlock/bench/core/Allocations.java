package io.distlock.bench.core;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Heap bytes allocated by threads of this JVM, from HotSpot's per-thread allocation counters
 * ({@code com.sun.management.ThreadMXBean}): the benchmark thread itself, and every other thread over a measured
 * phase. Only the client side is seen; the store server's allocations (except an in-process ZooKeeper server's) are
 * not. Where the JVM lacks the counters, every figure is -1.
 */
public final class Allocations {

    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private Allocations() {
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()) {
            bean.setThreadAllocatedMemoryEnabled(true);
            return bean;
        }
        return null;
    }

    /** Bytes the calling thread has allocated since it started, or -1 if unknown. */
    public static long thisThread() {
        return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
    }

    /** The allocation counters of every live thread except the caller, to subtract at the end of a phase. */
    public static Snapshot otherThreads() {
        return new Snapshot(counters());
    }

    private static Map<Long, Long> counters() {
        Map<Long, Long> bytes = new HashMap<>();
        if (THREADS == null) {
            return bytes;
        }
        long me = Thread.currentThread().getId();
        long[] ids = THREADS.getAllThreadIds();
        long[] allocated = THREADS.getThreadAllocatedBytes(ids);
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != me && allocated[i] >= 0) {
                bytes.put(ids[i], allocated[i]);
            }
        }
        return bytes;
    }

    /** The counters of the other threads at one moment. */
    public static final class Snapshot {
        private final Map<Long, Long> before;

        private Snapshot(Map<Long, Long> before) {
            this.before = before;
        }

        /**
         * Bytes allocated since this snapshot by threads other than the caller that are alive now (a thread started
         * meanwhile counts in full; one that ended meanwhile is missed), or -1 if unknown.
         */
        public long allocatedSince() {
            if (THREADS == null) {
                return -1;
            }
            long total = 0;
            for (Map.Entry<Long, Long> now : counters().entrySet()) {
                total += Math.max(0, now.getValue() - before.getOrDefault(now.getKey(), 0L));
            }
            return total;
        }
    }
}
