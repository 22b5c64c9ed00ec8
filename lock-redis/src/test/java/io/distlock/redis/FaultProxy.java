package io.distlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A loopback TCP proxy in front of a test-owned Redis that can fail one chosen connection the way a network does,
 * while every other connection keeps working: {@link #dropReplyToNext} swallows the reply to the next request
 * containing a marker (and everything after it on that connection: the client sees a socket timeout, the server
 * ran the command), {@link #holdNext} keeps the next request containing a marker from the server until
 * {@link #releaseHeld} (to force an interleaving: another client acts while this request waits), and
 * {@link #freezeSubscriptions} makes every current pub/sub connection (one that sent {@code PSUBSCRIBE}) go silent
 * in both directions without closing it.
 */
final class FaultProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket listener;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicReference<String> dropMarker = new AtomicReference<>();
    private volatile CountDownLatch dropped = new CountDownLatch(1);
    private final AtomicReference<String> holdMarker = new AtomicReference<>();
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile CountDownLatch letThrough = new CountDownLatch(1);
    private volatile boolean closed;

    /** A proxy on {@code port} (0: any free port) forwarding to {@code 127.0.0.1:targetPort}. */
    FaultProxy(int port, int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port clients connect to. */
    int port() {
        return listener.getLocalPort();
    }

    /**
     * The next request (on any connection but a subscription) whose bytes contain {@code marker} reaches the server,
     * but its reply, and anything after it on that connection, never reaches the client.
     */
    void dropReplyToNext(String marker) {
        dropped = new CountDownLatch(1);
        dropMarker.set(marker);
    }

    /** Waits until a reply armed by {@link #dropReplyToNext} has been swallowed. */
    boolean awaitDropped(long timeout, TimeUnit unit) throws InterruptedException {
        return dropped.await(timeout, unit);
    }

    /**
     * The next request (on any connection but a subscription) whose bytes contain {@code marker} is held, with
     * everything after it on that connection, until {@link #releaseHeld}; then it reaches the server.
     */
    void holdNext(String marker) {
        held = new CountDownLatch(1);
        letThrough = new CountDownLatch(1);
        holdMarker.set(marker);
    }

    /** Waits until a request armed by {@link #holdNext} is being held. */
    boolean awaitHeld(long timeout, TimeUnit unit) throws InterruptedException {
        return held.await(timeout, unit);
    }

    /** Lets the held request (and whatever followed it) go on to the server. */
    void releaseHeld() {
        letThrough.countDown();
    }

    /** Every pub/sub connection open now stops passing bytes either way; it stays open. New ones work. */
    int freezeSubscriptions() {
        int frozen = 0;
        for (Link link : links) {
            if (link.subscription) {
                link.frozen = true;
                frozen++;
            }
        }
        return frozen;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Link link = new Link(client, server);
                links.add(link);
                link.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("fault proxy to " + targetPort + ": " + e);
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        letThrough.countDown();
        listener.close();
        for (Link link : links) {
            link.close();
        }
    }

    /** One proxied connection. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private volatile boolean subscription;
        private volatile boolean frozen;
        private volatile boolean replyDropArmed;
        private volatile boolean blackHoled;
        private final CountDownLatch closing = new CountDownLatch(1);

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pump(client, server, true);
            pump(server, client, false);
        }

        private void pump(Socket from, Socket to, boolean up) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        if (up && inspectRequest(new String(buffer, 0, n, StandardCharsets.ISO_8859_1))) {
                            CountDownLatch gate = letThrough;
                            held.countDown();
                            gate.await();
                        }
                        if (frozen) {
                            closing.await(); // a frozen peer: hold the bytes, answer nothing, until the proxy closes
                            return;
                        }
                        if (!up && (replyDropArmed || blackHoled)) {
                            replyDropArmed = false;
                            blackHoled = true;
                            dropped.countDown();
                            continue;
                        }
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // one side closed: close both below
                } finally {
                    close();
                }
            }, "fault-proxy-" + (up ? "up" : "down"));
            t.setDaemon(true);
            t.start();
        }

        /** Notes subscriptions and armed drops; returns whether this request is to be held. */
        private boolean inspectRequest(String request) {
            if (request.toUpperCase(java.util.Locale.ROOT).contains("PSUBSCRIBE")) {
                subscription = true;
            }
            String marker = dropMarker.get();
            if (!subscription && marker != null && request.contains(marker) && dropMarker.compareAndSet(marker, null)) {
                replyDropArmed = true;
            }
            String hold = holdMarker.get();
            return !subscription && hold != null && request.contains(hold) && holdMarker.compareAndSet(hold, null);
        }

        void close() {
            closing.countDown();
            try {
                client.close();
            } catch (IOException ignored) {
                // already closed
            }
            try {
                server.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
