package io.distlock.redis;

import io.distlock.spi.LockBackend;

/** Redlock over several independent masters (placeholder until implemented). */
final class RedlockBackend {
    private RedlockBackend() {
    }

    static LockBackend open(RedisUri uri) {
        throw new UnsupportedOperationException("redlock:// is not implemented yet");
    }
}
