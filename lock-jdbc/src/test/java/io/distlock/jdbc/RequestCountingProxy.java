package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A TCP proxy in front of a database that counts the client's requests whose text names a given word (a table), or
 * on MySQL's protocol the statements it sends ({@link #statements}):
 * what the store sent to the server, read off the wire, so a test can say a store never touched a table without any
 * hook in the store. Statement text travels in clear on the MySQL text protocol and in PostgreSQL's Parse messages.
 */
final class RequestCountingProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:?]+):(\\d+)/");

    private final AtomicInteger requests = new AtomicInteger();
    private final NioReactor reactor;
    private final TcpCrusher crusher;
    private final String hostPort;
    private final int port = FreePorts.next();

    /** A proxy for the host:port in {@code jdbcUrl}, counting requests that contain {@code word}. */
    RequestCountingProxy(String jdbcUrl, String word) throws Exception {
        this(jdbcUrl, bytes -> new String(bytes, StandardCharsets.ISO_8859_1).contains(word));
    }

    /**
     * A proxy for a MySQL or MariaDB server that counts the statements the server executes ({@code COM_QUERY},
     * {@code COM_STMT_EXECUTE}), as lock-bench's server requests do: not a connection check ({@code COM_PING}, sent
     * by HikariCP before it lends a connection idle for 500 ms or more).
     */
    static RequestCountingProxy statements(String jdbcUrl) throws Exception {
        return new RequestCountingProxy(jdbcUrl, bytes -> bytes.length > 4 && (bytes[4] == 0x03 || bytes[4] == 0x17));
    }

    /**
     * A proxy for a MySQL or MariaDB server that counts the connection checks ({@code COM_PING}) the client sends:
     * HikariCP's, before it lends a connection idle for 500 ms or more (a round trip before the statement), each
     * counted when its connection sends its next statement, unless that statement's text holds {@code unlessBefore}
     * (a background statement's, say).
     */
    static RequestCountingProxy pings(String jdbcUrl, String unlessBefore) throws Exception {
        return new RequestCountingProxy(jdbcUrl, () -> new java.util.function.Predicate<byte[]>() {
            private boolean pinged;

            @Override
            public boolean test(byte[] bytes) {
                if (bytes.length <= 4) {
                    return false;
                }
                if (bytes[4] == 0x0e) {
                    pinged = true; // counted with the connection's next statement
                    return false;
                }
                boolean statement = bytes[4] == 0x03 || bytes[4] == 0x17;
                boolean count = pinged && statement
                        && !new String(bytes, StandardCharsets.ISO_8859_1).contains(unlessBefore);
                pinged &= !statement;
                return count;
            }
        });
    }

    private RequestCountingProxy(String jdbcUrl, java.util.function.Predicate<byte[]> counted) throws Exception {
        this(jdbcUrl, () -> counted);
    }

    /** A proxy whose every connection counts the requests its own predicate ({@code perConnection}'s) accepts. */
    private RequestCountingProxy(String jdbcUrl,
            java.util.function.Supplier<java.util.function.Predicate<byte[]>> perConnection) throws Exception {
        Matcher target = HOST_PORT.matcher(jdbcUrl);
        if (!target.find()) {
            throw new IllegalArgumentException("no host:port in the test database URL");
        }
        hostPort = target.group(0);
        reactor = new NioReactor();
        crusher = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", port)
                .withConnectAddress(target.group(1), Integer.parseInt(target.group(2)))
                .withOutgoingTransformFilterFactory(address -> {
                    java.util.function.Predicate<byte[]> counted = perConnection.get();
                    return request -> watchRequest(request, counted);
                })
                .buildAndOpen();
    }

    private void watchRequest(ByteBuffer request, java.util.function.Predicate<byte[]> counted) {
        byte[] bytes = new byte[request.remaining()];
        request.duplicate().get(bytes);
        if (counted.test(bytes)) {
            requests.incrementAndGet();
        }
    }

    /** Requests counted so far. */
    int requests() {
        return requests.get();
    }

    /** {@code jdbcUrl} pointed at the proxy instead of the server. */
    String route(String jdbcUrl) {
        return jdbcUrl.replace(hostPort, "//127.0.0.1:" + port + "/");
    }

    @Override
    public void close() {
        crusher.close();
        reactor.close();
    }
}
