package io.distlock.redis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A redis-server of one test class's own (so command counts and keys are that class's alone): started before its
 * first test, stopped after its last. Register it as {@code @RegisterExtension static final OwnRedisServer server}.
 */
final class OwnRedisServer implements BeforeAllCallback, AfterAllCallback {

    private final String[] extraArgs;
    private RedisServer server;

    /** A server started with {@code extraArgs} on its command line (for example a password). */
    OwnRedisServer(String... extraArgs) {
        this.extraArgs = extraArgs.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.start(extraArgs);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }

    /** The server's port. */
    int port() {
        return server.port();
    }

    /** A distlock URI of the server with {@code query} appended, as {@link RedisServer#uri(String)}. */
    String uri(String query) {
        return server.uri(query);
    }
}
