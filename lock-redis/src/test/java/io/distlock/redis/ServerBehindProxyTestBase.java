package io.distlock.redis;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test class on a fresh Redis server of its own per test and a {@link FaultProxy} in front of it: the client under
 * test connects through the proxy ({@link #viaProxy}), any other client directly ({@code server.uri(...)}).
 */
abstract class ServerBehindProxyTestBase {

    RedisServer server;
    FaultProxy proxy;

    @BeforeEach
    void startServerAndProxy() throws Exception {
        server = RedisServer.start();
        proxy = new FaultProxy(0, server.port());
    }

    @AfterEach
    void stopServerAndProxy() throws Exception {
        proxy.close();
        server.close();
    }

    /** A store URI through the proxy, with {@code query} (such as {@code timeout=1s}). */
    String viaProxy(String query) {
        return "redis://127.0.0.1:" + proxy.port() + "?" + query;
    }
}
