package io.distlock.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What the report says about the machine: cores, memory, JDK, OS and the load average. */
public final class Machine {

    private Machine() {
    }

    /** One line: processors, memory, JDK, OS. */
    public static String describe() {
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "%d cores (nproc), %s memory, %s %s (%s), %s %s, max heap %d MiB",
                rt.availableProcessors(), totalMemory(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"),
                System.getProperty("os.name"), System.getProperty("os.version"), rt.maxMemory() >> 20);
    }

    /** The 1-minute load average now, or -1 where unknown. */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String totalMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: fall through
        }
        return "unknown";
    }
}
