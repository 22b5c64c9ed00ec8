package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.SafeEncoder;

/**
 * A redis-server of the test's own whose data can be restored from an older RDB snapshot (§19.6): {@link #backUp()}
 * makes the server {@code SAVE} and copies its {@code dump.rdb}; {@link #restoreOlderCopy()} kills it (no shutdown
 * save), puts that copy back and starts it again on the same port, as an operator restores a backup.
 */
final class RestorableRedis implements FenceStateTampering.RestorableStore {

    private final RedisServer server = RedisServer.start();
    private final Path snapshot = server.directory().resolve("dump.rdb");
    private final Path copy = server.directory().resolve("older-copy.rdb");

    @Override
    public LockStore client() {
        return LockStore.open(server.uri("timeout=2s"));
    }

    @Override
    public void backUp() {
        try (RedisProbe probe = new RedisProbe(server.port())) {
            String reply = SafeEncoder.encode((byte[]) probe.raw().sendCommand(Protocol.Command.SAVE));
            if (!"OK".equals(reply)) {
                throw new IllegalStateException("SAVE answered " + reply);
            }
        }
        copy(snapshot, copy);
    }

    @Override
    public void restoreOlderCopy() {
        server.kill();
        copy(copy, snapshot);
        server.startAgain();
    }

    @Override
    public void close() {
        server.close();
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + from + " to " + to, e);
        }
    }
}
