package io.distlock.bench.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy in front of a store that counts what crosses it and can add a fixed delay each way. Every
 * time a client starts sending after it last received (or for the first time), that is one request burst the
 * server must answer: one round trip (pipelined commands sent in one burst count once, as they cost one round
 * trip). It also counts bytes each way and the messages the server pushes unasked ({@link #pushes}). It lets
 * the harness count what any client library sends, without touching the library and without counting other
 * processes' traffic on a shared server; with a delay it puts a realistic network round-trip time between client
 * and store, so latency rather than CPU noise decides throughput.
 */
public final class RoundTripProxy implements AutoCloseable {

    /** Prefix of every thread the proxy starts, so client CPU and allocation figures can leave them out. */
    public static final String THREAD_PREFIX = "bench-proxy-";

    private final HostPort target;
    private final long delayNanos;
    private final WireProtocol protocol;
    private final AtomicLong requests = new AtomicLong();
    private final ServerSocket listener;
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong bytesDown = new AtomicLong();
    private final AtomicLong pushes = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile boolean closed;

    /** Starts a proxy without delay on a free loopback port forwarding to {@code target}. */
    public RoundTripProxy(HostPort target) throws IOException {
        this(target, Duration.ZERO, WireProtocol.NONE);
    }

    /**
     * Starts a proxy on a free loopback port forwarding to {@code target} that holds every chunk of data for
     * {@code delayEachWay} before passing it on, in both directions (a round trip gains twice the delay).
     */
    public RoundTripProxy(HostPort target, Duration delayEachWay, WireProtocol protocol) throws IOException {
        if (delayEachWay.isNegative()) {
            throw new IllegalArgumentException("proxy delay must not be negative, got " + delayEachWay);
        }
        this.target = target;
        this.protocol = protocol;
        this.delayNanos = delayEachWay.toNanos();
        this.listener = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, THREAD_PREFIX + "accept-" + target);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Where clients should connect instead of the store. */
    public HostPort address() {
        return new HostPort("127.0.0.1", listener.getLocalPort());
    }

    /** The delay added each way. */
    public Duration delayEachWay() {
        return Duration.ofNanos(delayNanos);
    }

    /** Request bursts sent to the store so far. */
    public long roundTrips() {
        return roundTrips.get();
    }

    /**
     * Messages the store pushes unasked, such as pub/sub deliveries and watch events. Where the protocol marks them
     * ({@link WireProtocol#newPushParser}: ZooKeeper's watch events) exactly those; otherwise reads from the store that
     * answered no request (the connection was not waiting for a reply), where a reply split over several reads also
     * counts (ZooKeeper's replies were about 1.3 such reads per contended acquisition in lock-bench, 0.11 with one
     * client).
     */
    public long pushes() {
        return pushes.get();
    }

    /** Bytes sent to the store so far. */
    public long bytesUp() {
        return bytesUp.get();
    }

    /** Bytes the store sent back so far. */
    public long bytesDown() {
        return bytesDown.get();
    }

    /** Requests the server executed for the clients so far (see {@link WireProtocol}); 0 without a protocol. */
    public long requests() {
        return requests.get();
    }

    /** Connections opened through the proxy so far. */
    public long connections() {
        return connections.get();
    }

    /** All counters at this moment. */
    public Counts counts() {
        return new Counts(roundTrips.get(), pushes.get(), bytesUp.get(), bytesDown.get(), requests.get());
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.host(), target.port());
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                connections.incrementAndGet();
                Direction direction = new Direction();
                pump(client, server, direction, true);
                pump(server, client, direction, false);
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("bench proxy to " + target + ": " + e);
                }
            }
        }
    }

    private void pump(Socket from, Socket to, Direction direction, boolean up) {
        DelayedWriter delayed = delayNanos > 0 ? new DelayedWriter(to, up) : null;
        WireProtocol.Parser parser = up ? protocol.newParser() : protocol.newPushParser();
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    long now = System.nanoTime();
                    count(direction, up, n, parser != null);
                    if (parser != null) {
                        (up ? requests : pushes).addAndGet(parser.read(buffer, 0, n));
                    }
                    if (delayed == null) {
                        out.write(buffer, 0, n);
                        out.flush();
                    } else {
                        delayed.queue.add(new Chunk(now + delayNanos, Arrays.copyOf(buffer, n)));
                    }
                }
            } catch (IOException e) {
                // one side closed: close both (a delayed writer closes its side once it has written the rest)
            } finally {
                closeQuietly(from);
                if (delayed == null) {
                    closeQuietly(to);
                } else {
                    delayed.queue.add(Chunk.END);
                }
            }
        }, THREAD_PREFIX + (up ? "up" : "down"));
        t.setDaemon(true);
        t.start();
    }

    /** Counts a read of {@code n} bytes; a read from the store is a push only if no parser counts its pushes. */
    private void count(Direction direction, boolean up, int n, boolean parsed) {
        if (up) {
            if (!direction.sending) {
                direction.sending = true;
                roundTrips.incrementAndGet();
            }
            bytesUp.addAndGet(n);
        } else {
            bytesDown.addAndGet(n);
            if (direction.sending) {
                direction.sending = false;
            } else if (!parsed) {
                pushes.incrementAndGet();
            }
        }
    }

    /** Writes chunks to one socket once each is due, in order: a fixed delay without reordering. */
    private final class DelayedWriter {
        final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();

        DelayedWriter(Socket to, boolean up) {
            Thread t = new Thread(() -> {
                try {
                    OutputStream out = to.getOutputStream();
                    while (true) {
                        Chunk chunk = queue.take();
                        if (chunk == Chunk.END) {
                            break;
                        }
                        long wait;
                        while ((wait = chunk.due - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        out.write(chunk.bytes);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                } finally {
                    closeQuietly(to);
                }
            }, THREAD_PREFIX + "delay-" + (up ? "up" : "down"));
            t.setDaemon(true);
            t.start();
        }
    }

    /** Data read from one side, to be written to the other at {@code due} (System.nanoTime). */
    private record Chunk(long due, byte[] bytes) {
        static final Chunk END = new Chunk(0, new byte[0]);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        sockets.forEach(RoundTripProxy::closeQuietly);
    }

    /** Which way one connection's traffic went last. */
    private static final class Direction {
        volatile boolean sending;
    }

    /**
     * The proxy's counters at one moment.
     *
     * @param roundTrips request bursts sent to the store
     * @param pushes messages the store pushed unasked ({@link RoundTripProxy#pushes})
     * @param bytesUp bytes sent to the store
     * @param bytesDown bytes the store sent
     * @param requests requests the server executed (commands, statements, ZooKeeper requests)
     */
    public record Counts(long roundTrips, long pushes, long bytesUp, long bytesDown, long requests) {

        /** The counts since {@code earlier}. */
        public Counts minus(Counts earlier) {
            return new Counts(roundTrips - earlier.roundTrips, pushes - earlier.pushes, bytesUp - earlier.bytesUp,
                    bytesDown - earlier.bytesDown, requests - earlier.requests);
        }
    }

    @Override
    public String toString() {
        return "RoundTripProxy[" + address() + " -> " + target + ", delay " + delayEachWay() + " each way]";
    }
}
