package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import redis.clients.jedis.RedisClient;

/** Test helpers: a raw client to look at a server from outside the store, and command counters. */
final class RedisProbe implements AutoCloseable {

    private final RedisClient raw;

    RedisProbe(int port) {
        this.raw = RedisClient.create("127.0.0.1", port);
    }

    /** The raw client. */
    RedisClient raw() {
        return raw;
    }

    /** The server's clock ({@code TIME}) in microseconds. */
    long serverClockMicros() {
        java.util.List<?> time = (java.util.List<?>) raw.eval("return redis.call('TIME')");
        return Long.parseLong(time.get(0).toString()) * 1_000_000 + Long.parseLong(time.get(1).toString());
    }

    /** How many times the server ran {@code command} (from {@code INFO commandstats}), 0 if never. */
    long calls(String command) {
        String info = raw.info("commandstats");
        String head = "cmdstat_" + command + ":calls=";
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(head)) {
                String rest = line.substring(head.length());
                return Long.parseLong(rest.substring(0, rest.indexOf(',')));
            }
        }
        return 0;
    }

    /** The backend of a store opened by {@link BackendStores#open}. */
    static RedisBackend backendOf(LockStore store) {
        return BackendStores.backend(store, RedisBackend.class);
    }

    @Override
    public void close() {
        raw.close();
    }
}
