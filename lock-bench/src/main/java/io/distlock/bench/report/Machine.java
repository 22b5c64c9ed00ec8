package io.distlock.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** What the report says about the machine: cores, memory, JDK, OS, the load average and the git commit. */
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

    /** The short hash of the checked-out git commit, with {@code -dirty} if tracked files changed; else "unknown". */
    public static String commit() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head == null || head.isBlank()) {
            return "unknown";
        }
        String changes = git("status", "--porcelain", "--untracked-files=no");
        return head.strip() + (changes == null || changes.isBlank() ? "" : "-dirty");
    }

    private static String git(String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroy();
                return null;
            }
            return out;
        } catch (IOException e) {
            return null; // no git on this machine
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
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
