package io.distlock.bench.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of a store that counts round trips: every time a client starts sending after it
 * last received (or for the first time), that is one request burst the server must answer. Pipelined commands sent
 * in one burst count once, as they cost one round trip. It lets the harness count what any client library sends,
 * without touching the library and without counting other processes' traffic on a shared server.
 */
public final class RoundTripProxy implements AutoCloseable {

    private final HostPort target;
    private final ServerSocket listener;
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong pushes = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile boolean closed;

    /** Starts a proxy on a free loopback port forwarding to {@code target}. */
    public RoundTripProxy(HostPort target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "bench-proxy-accept-" + target);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Where clients should connect instead of the store. */
    public HostPort address() {
        return new HostPort("127.0.0.1", listener.getLocalPort());
    }

    /** Request bursts sent to the store so far. */
    public long roundTrips() {
        return roundTrips.get();
    }

    /**
     * Reads from the store that answered no request (the connection was not waiting for a reply): messages the
     * store pushes, such as pub/sub deliveries and watch events. A reply split over several reads also counts,
     * which on loopback is rare for small replies.
     */
    public long pushes() {
        return pushes.get();
    }

    /** Bytes sent to the store so far. */
    public long bytesUp() {
        return bytesUp.get();
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
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (up) {
                        if (!direction.sending) {
                            direction.sending = true;
                            roundTrips.incrementAndGet();
                        }
                        bytesUp.addAndGet(n);
                    } else if (direction.sending) {
                        direction.sending = false;
                    } else {
                        pushes.incrementAndGet();
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "bench-proxy-" + (up ? "up" : "down"));
        t.setDaemon(true);
        t.start();
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

    @Override
    public String toString() {
        return "RoundTripProxy[" + address() + " -> " + target + "]";
    }
}
