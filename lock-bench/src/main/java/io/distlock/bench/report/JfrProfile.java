package io.distlock.bench.report;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.Sample;
import io.distlock.bench.core.Scenario;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Profiles one contender in one scenario with JDK Flight Recorder and summarises it for the report: where CPU
 * samples land (top frames, and the hottest distlock and client-driver methods including callees), and how much
 * of the benchmark threads' time went to waiting on socket reads, i.e. on the store. Used where distlock misses a
 * target, to say why.
 */
public final class JfrProfile {

    private static final List<String> INTERESTING = List.of("io.distlock.", "redis.clients.", "org.apache.curator.",
            "org.apache.zookeeper.", "com.zaxxer.", "org.mariadb.", "org.postgresql.");

    private JfrProfile() {
    }

    /** Runs {@code scenario} for {@code duration} under JFR, keeps the recording in {@code file}, returns Markdown. */
    public static String profile(String store, Contender contender, Scenario scenario, String namePrefix,
                                 Duration duration, Path file) throws Exception {
        Sample sample;
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(2));
            recording.enable("jdk.SocketRead").withThreshold(Duration.ZERO);
            recording.enable("jdk.SocketWrite").withThreshold(Duration.ZERO);
            recording.start();
            sample = scenario.run(contender, namePrefix, duration);
            recording.stop();
            recording.dump(file);
        }
        return summarise(store, contender, scenario, sample, file);
    }

    private static String summarise(String store, Contender contender, Scenario scenario, Sample sample, Path file)
            throws IOException, ParseException {
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        long cpuSamples = 0;
        long benchSocketReads = 0;
        long benchSocketReadNanos = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            String type = event.getEventType().getName();
            if (type.equals("jdk.ExecutionSample")) {
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                cpuSamples++;
                self.merge(frame(stack.getFrames().get(0)), 1L, Long::sum);
                Set<String> seen = new HashSet<>();
                for (RecordedFrame f : stack.getFrames()) {
                    String name = frame(f);
                    if (!name.startsWith("io.distlock.bench.") && INTERESTING.stream().anyMatch(name::startsWith)
                            && seen.add(name)) {
                        inclusive.merge(name, 1L, Long::sum);
                    }
                }
            } else if (type.equals("jdk.SocketRead") && event.getThread() != null
                    && event.getThread().getJavaName() != null
                    && event.getThread().getJavaName().startsWith("bench-")) {
                benchSocketReads++;
                benchSocketReadNanos += event.getDuration().toNanos();
            }
        }
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "JFR profile of %s on %s in `%s` (%s; %,.0f ops/s while recording; "
                        + "recording kept at `%s`):%n%n", contender.name(), store, scenario.id(),
                "settings 'profile', CPU sample every 2 ms, every socket read", sample.opsPerSecond(), file));
        if (sample.operations() > 0) {
            md.append(String.format(Locale.ROOT, "- blocking socket reads by benchmark threads (zero for clients that "
                            + "do I/O on their own threads, like ZooKeeper's): %.2f per operation, "
                            + "%.0f%% of the benchmark threads' time (the rest is CPU in client code and waiting "
                            + "for a core)%n",
                    (double) benchSocketReads / sample.operations(),
                    100.0 * benchSocketReadNanos / Math.max(1, sample.elapsedNanos() * threadsOf(scenario))));
        }
        md.append(String.format(Locale.ROOT, "- %,d CPU samples in this JVM; hottest frames (self):%n%n", cpuSamples));
        md.append(table(self, cpuSamples));
        md.append("\nHottest client-side methods including callees (distlock and drivers; the harness left out):\n\n");
        md.append(table(inclusive, cpuSamples));
        return md.toString();
    }

    private static int threadsOf(Scenario scenario) {
        String id = scenario.id();
        try {
            if (id.startsWith("uncontended-")) {
                return Integer.parseInt(id.substring("uncontended-".length()));
            }
            if (id.startsWith("contended-")) {
                return Integer.parseInt(id.substring("contended-".length(), id.indexOf('x')));
            }
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            return 1;
        }
        return 2;
    }

    private static String table(Map<String, Long> counts, long total) {
        StringBuilder md = new StringBuilder("| method | samples | share |\n|---|---:|---:|\n");
        Map<String, Long> top = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(12)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        top.forEach((name, n) -> md.append(String.format(Locale.ROOT, "| `%s` | %,d | %.1f%% |%n", name, n,
                100.0 * n / Math.max(1, total))));
        return md.toString();
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }
}
