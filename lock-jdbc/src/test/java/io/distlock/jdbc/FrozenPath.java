package io.distlock.jdbc;

import io.distlock.tck.fixture.FreePorts;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A TCP proxy on a free port to the server a JDBC URI names, which can be frozen: its connections stay open and
 * hear nothing, new ones are accepted by the kernel and then hear nothing, as a paused or cut-off server behaves.
 * The server itself is never touched, so it may be a shared one.
 */
final class FrozenPath implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:?;]+):(\\d+)/");

    private final NioReactor reactor;
    private final TcpCrusher proxy;
    private final String target;
    private final int port = FreePorts.next();

    /** A proxy to the {@code //host:port/} of {@code uri}. */
    FrozenPath(String uri) throws java.io.IOException {
        Matcher m = HOST_PORT.matcher(uri);
        if (!m.find()) {
            throw new IllegalArgumentException("no //host:port/ in the test URI");
        }
        target = m.group(0);
        reactor = new NioReactor();
        proxy = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", port)
                .withConnectAddress(m.group(1), Integer.parseInt(m.group(2))).buildAndOpen();
    }

    /** {@code uri} (which names the same server) with its host and port replaced by this proxy's. */
    String through(String uri) {
        if (!uri.contains(target)) {
            throw new IllegalArgumentException("the URI names another server than the proxy's");
        }
        return uri.replace(target, "//" + hostPort() + "/");
    }

    /** This proxy's {@code 127.0.0.1:port}, as store names and messages show it. */
    String hostPort() {
        return "127.0.0.1:" + port;
    }

    /** Nothing passes any more, in either direction; connections stay open. */
    void freeze() {
        proxy.freeze();
    }

    /** Data flows again on the connections that survived, and new ones are served. */
    void unfreeze() {
        proxy.unfreeze();
    }

    /** The client ends of the connections through this proxy now. */
    java.util.Set<java.net.InetSocketAddress> clients() {
        return new java.util.HashSet<>(proxy.getClientAddresses());
    }

    /** How many bytes have passed, either way, on the connection of {@code client}. */
    long bytes(java.net.InetSocketAddress client) {
        org.netcrusher.core.meter.RateMeters meters = proxy.getClientByteMeters(client);
        return meters.getReadMeter().getTotalCount() + meters.getSentMeter().getTotalCount();
    }

    /** Freezes the connection of {@code client} only, as a network that dropped it without telling either end. */
    void freeze(java.net.InetSocketAddress client) {
        proxy.getClientFreezer(client).freeze();
    }

    @Override
    public void close() {
        proxy.close();
        reactor.close();
    }
}
