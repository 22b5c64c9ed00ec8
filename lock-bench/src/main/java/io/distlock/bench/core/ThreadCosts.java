package io.distlock.bench.core;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * CPU time and heap allocation of groups of this JVM's threads over a measured phase, from HotSpot's per-thread
 * counters ({@code com.sun.management.ThreadMXBean}). The harness's own proxy threads are never counted; the threads
 * of an in-process ZooKeeper server are counted apart, as server cost, so "client" means the lock library, its
 * driver and the benchmark loop. Threads that end during the phase are missed; threads started during it count in
 * full. Where the JVM lacks a counter the figure is -1.
 */
public final class ThreadCosts {

    /** Threads of an in-process ZooKeeper server (Curator's TestingServer), by name. */
    private static final Pattern ZOOKEEPER_SERVER = Pattern.compile(
            "NIOServerCxn.*|NIOWorkerThread.*|SyncThread.*|ProcessThread.*|CommitProc.*|RequestThrottler.*"
                    + "|SessionTracker.*|ConnnectionExpirer.*|ConnectionExpirer.*|PurgeTask.*");

    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private ThreadCosts() {
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean) {
            if (bean.isThreadAllocatedMemorySupported()) {
                bean.setThreadAllocatedMemoryEnabled(true);
            }
            if (bean.isThreadCpuTimeSupported()) {
                bean.setThreadCpuTimeEnabled(true);
            }
            return bean;
        }
        return null;
    }

    /** Whether a thread of this name belongs to an in-process store server rather than to the client side. */
    public static boolean isServerThread(String name) {
        return ZOOKEEPER_SERVER.matcher(name).matches();
    }

    /** Whether a thread of this name is the client side: not the harness's proxy, not an in-process server. */
    public static boolean isClientThread(String name) {
        return !name.startsWith(RoundTripProxy.THREAD_PREFIX) && !isServerThread(name);
    }

    /** CPU seconds used so far by the live threads of an in-process store server (ZooKeeper), or 0 if none. */
    public static double serverCpuSeconds() {
        if (THREADS == null) {
            return 0;
        }
        long total = 0;
        long[] ids = THREADS.getAllThreadIds();
        long[] cpu = THREADS.getThreadCpuTime(ids);
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && cpu[i] > 0 && isServerThread(infos[i].getThreadName())) {
                total += cpu[i];
            }
        }
        return total / 1e9;
    }

    /** The counters of every live thread now. */
    public static Snapshot now() {
        Map<Long, long[]> counters = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        if (THREADS != null) {
            long[] ids = THREADS.getAllThreadIds();
            long[] cpu = THREADS.getThreadCpuTime(ids);
            long[] allocated = THREADS.getThreadAllocatedBytes(ids);
            ThreadInfo[] infos = THREADS.getThreadInfo(ids);
            for (int i = 0; i < ids.length; i++) {
                if (infos[i] != null) {
                    counters.put(ids[i], new long[] {cpu[i], allocated[i]});
                    names.put(ids[i], infos[i].getThreadName());
                }
            }
        }
        return new Snapshot(counters, names);
    }

    /**
     * CPU nanoseconds and bytes allocated by a group of threads over a phase.
     *
     * @param cpuNanos CPU time, or -1 if unknown
     * @param allocatedBytes heap bytes allocated, or -1 if unknown
     */
    public record Cost(long cpuNanos, long allocatedBytes) {
    }

    /** The counters of every live thread at one moment. */
    public static final class Snapshot {
        private final Map<Long, long[]> counters;
        private final Map<Long, String> names;

        private Snapshot(Map<Long, long[]> counters, Map<Long, String> names) {
            this.counters = counters;
            this.names = names;
        }

        /** What the threads whose name passes {@code which} used from {@code earlier} to this snapshot. */
        public Cost since(Snapshot earlier, Predicate<String> which) {
            if (THREADS == null) {
                return new Cost(-1, -1);
            }
            long cpu = 0;
            long bytes = 0;
            for (Map.Entry<Long, long[]> e : counters.entrySet()) {
                if (!which.test(names.get(e.getKey()))) {
                    continue;
                }
                long[] before = earlier.counters.getOrDefault(e.getKey(), new long[] {0, 0});
                cpu += Math.max(0, e.getValue()[0] - Math.max(0, before[0]));
                bytes += Math.max(0, e.getValue()[1] - Math.max(0, before[1]));
            }
            return new Cost(cpu, bytes);
        }
    }
}
