package io.distlock.mem;

import io.distlock.spi.LockBackend;
import io.distlock.spi.LockStoreProvider;
import io.distlock.spi.StoreUri;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code mem:} store: locks in this JVM's memory, for unit tests of code that uses distlock and for the TCK's
 * self-check. {@code mem:} opens a private space; {@code mem:NAME} opens the space NAME, shared by every store of
 * that name in the JVM (as H2's {@code jdbc:h2:mem:NAME}).
 */
public final class MemLockStoreProvider implements LockStoreProvider {

    private static final ConcurrentHashMap<String, MemSpace> SPACES = new ConcurrentHashMap<>();

    @Override
    public Set<String> schemes() {
        return Set.of("mem");
    }

    @Override
    public LockBackend open(StoreUri uri) {
        String name = uri.withoutQuery();
        if (name.startsWith("//")) {
            name = name.substring(2);
        }
        if (!uri.params().isEmpty()) {
            throw new IllegalArgumentException("mem store takes no options, got " + uri.params().keySet()
                    + " in " + uri.redacted());
        }
        MemSpace space = name.isEmpty() ? new MemSpace() : SPACES.computeIfAbsent(name, k -> new MemSpace());
        return new MemBackend(space);
    }
}
