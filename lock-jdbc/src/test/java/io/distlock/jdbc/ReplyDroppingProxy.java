package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A TCP proxy in front of a database that can swallow the server's answers while still passing the client's
 * requests: the database executes and commits what it receives, and the client never hears back, as when a reply
 * is lost on the network.
 */
final class ReplyDroppingProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:?]+):(\\d+)/");

    private final AtomicBoolean dropping = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicReference<Pattern> dropFrom =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final NioReactor reactor;
    private final TcpCrusher crusher;
    private final String hostPort;
    private final int port = FreePorts.next();

    /** A proxy for the host:port in {@code jdbcUrl}. */
    ReplyDroppingProxy(String jdbcUrl) throws Exception {
        Matcher target = HOST_PORT.matcher(jdbcUrl);
        if (!target.find()) {
            throw new IllegalArgumentException("no host:port in the test database URL");
        }
        hostPort = target.group(0);
        reactor = new NioReactor();
        crusher = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", port)
                .withConnectAddress(target.group(1), Integer.parseInt(target.group(2)))
                .withIncomingTransformFilterFactory(address -> this::filterReply)
                .withOutgoingTransformFilterFactory(address -> this::watchRequest)
                .buildAndOpen();
    }

    private void filterReply(ByteBuffer reply) {
        if (dropping.get()) {
            reply.position(reply.limit());
        }
    }

    private void watchRequest(ByteBuffer request) {
        Pattern marker = dropFrom.get();
        if (marker != null) {
            byte[] bytes = new byte[request.remaining()];
            request.duplicate().get(bytes);
            if (marker.matcher(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)).find()
                    && dropFrom.compareAndSet(marker, null)) {
                dropping.set(true); // before the request goes on: its answer is the first one swallowed
            }
        }
    }

    /**
     * From the first request in which {@code marker} is found (e.g. {@code COMMIT(?!TED)}: a commit, not an
     * isolation level) on, the server's answers are swallowed: that request is executed, its answer lost.
     */
    void dropRepliesFrom(Pattern marker) {
        dropFrom.set(marker);
    }

    /** {@code jdbcUrl} pointed at the proxy instead of the server. */
    String route(String jdbcUrl) {
        return jdbcUrl.replace(hostPort, "//127.0.0.1:" + port + "/");
    }

    /** From now on the server's answers are swallowed (requests still reach it). */
    void dropReplies() {
        dropping.set(true);
    }

    /** Answers flow again. */
    void passReplies() {
        dropping.set(false);
    }

    @Override
    public void close() {
        crusher.close();
        reactor.close();
    }
}
