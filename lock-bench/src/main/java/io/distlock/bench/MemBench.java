package io.distlock.bench;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.distlock.DistlockContender;
import io.distlock.bench.distlock.DistlockSemaphoreContender;
import java.util.List;

/**
 * distlock's in-memory {@code mem:} store, the harness's self-check: it needs no server, so the smoke test and a
 * quick {@code --store mem} run exercise the whole harness (scenarios, report, chart) in seconds.
 */
final class MemBench implements StoreBench {

    private final String uri;

    MemBench(String uri) {
        this.uri = uri;
    }

    @Override
    public String name() {
        return "mem";
    }

    @Override
    public String describeServer() {
        return "distlock in-memory store (" + uri + "), no server: harness self-check";
    }

    @Override
    public HostPort server() {
        return new HostPort("127.0.0.1", 0);
    }

    @Override
    public List<Contender> contenders(HostPort via) {
        return List.of(new DistlockContender(uri),
                new DistlockSemaphoreContender(uri, SemaphoreContender.DEFAULT_PERMITS));
    }

    @Override
    public void close() {
        // nothing started
    }
}
