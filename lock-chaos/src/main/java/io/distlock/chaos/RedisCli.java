package io.distlock.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One redis-cli command against a server of the run's own, for faults the lock client must not see coming. */
final class RedisCli {

    private RedisCli() {
    }

    static String run(int port, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        args.addAll(Arrays.asList(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("redis-cli " + String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
