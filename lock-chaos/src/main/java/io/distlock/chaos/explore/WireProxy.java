package io.distlock.chaos.explore;

import io.distlock.tck.fixture.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A loopback TCP proxy between the clients of a scenario and the store's server that counts round trips: a burst of
 * bytes from a client after the server last spoke on that connection (or the first on it) is one request, the step.
 * Step k is the k-th request seen on any connection. When the run is armed with a step and a wire fault, that
 * request's connection gets the fault (lost, answered late, cut); a server fault is handed to a callback at that
 * moment, before the request is passed on.
 */
final class WireProxy implements AutoCloseable {

    private final int serverPort;
    private final int port = FreePorts.next();
    private final ServerSocket listener;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger steps = new AtomicInteger();
    private final List<String> labels = Collections.synchronizedList(new ArrayList<>());
    private volatile Supplier<String> label = () -> "";
    private volatile int armedStep = -1;
    private volatile Fault armedFault = Fault.NONE;
    private volatile Duration late = Duration.ZERO;
    private volatile Consumer<Fault> serverFault = f -> { };
    private volatile String injectedAt = null;

    WireProxy(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Thread accept = new Thread(this::acceptLoop, "explore-proxy-" + port);
        accept.setDaemon(true);
        accept.start();
    }

    /** The port clients connect to. */
    int port() {
        return port;
    }

    /**
     * Starts a run: the step count from 0, steps labelled by {@code label} as they are seen, the fault at
     * {@code step} ({@link Fault#NONE}: none), a late reply held for {@code late}, server faults to
     * {@code serverFault}.
     */
    void arm(int step, Fault fault, Duration late, Supplier<String> label, Consumer<Fault> serverFault) {
        steps.set(0);
        labels.clear();
        injectedAt = null;
        this.label = label;
        this.late = late;
        this.serverFault = serverFault;
        this.armedFault = fault;
        this.armedStep = step;
    }

    /** The requests counted since {@link #arm}. */
    int steps() {
        return steps.get();
    }

    /** What the scenario was doing at each step since {@link #arm}, in step order (index 0 is step 1). */
    List<String> labels() {
        synchronized (labels) {
            return List.copyOf(labels);
        }
    }

    /** The label of the step the fault was injected at, or null if the run never reached it. */
    String injectedAt() {
        return injectedAt;
    }

    /** Closes every connection through the proxy (the clients reconnect). */
    void cutAll() {
        connections.forEach(Connection::cut);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server;
                try {
                    server = new Socket();
                    server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort), 2000);
                } catch (IOException e) {
                    client.close(); // the server is down: the client sees a refused/closed connection
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Connection c = new Connection(client, server);
                connections.add(c);
                c.start();
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    /** Counts a request; returns the fault to apply to it (NONE for most). */
    private Fault onRequest() {
        int step = steps.incrementAndGet();
        String what = label.get();
        labels.add(what);
        if (step == armedStep && armedFault != Fault.NONE) {
            injectedAt = what;
            return armedFault;
        }
        return Fault.NONE;
    }

    /** One client connection and its server connection, pumped both ways by a thread each. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private volatile boolean clientSpokeLast;
        private volatile boolean blackhole;
        private volatile boolean cutOnReply;
        private volatile long replyNotBefore;
        private volatile long requestNotBefore;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            Thread up = new Thread(this::clientToServer, "explore-up-" + client.getPort());
            Thread down = new Thread(this::serverToClient, "explore-down-" + client.getPort());
            up.setDaemon(true);
            down.setDaemon(true);
            up.start();
            down.start();
        }

        private void clientToServer() {
            byte[] buf = new byte[16384];
            try (InputStream in = client.getInputStream()) {
                OutputStream out = server.getOutputStream();
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (blackhole) {
                        continue;
                    }
                    Fault fault = Fault.NONE;
                    if (!clientSpokeLast) {
                        clientSpokeLast = true;
                        fault = onRequest();
                    }
                    switch (fault) {
                        case REQUEST_LOST -> {
                            blackhole = true;
                            continue;
                        }
                        case CUT_BEFORE -> {
                            cut();
                            return;
                        }
                        case REPLY_LOST -> {
                            out.write(buf, 0, n);
                            out.flush();
                            blackhole = true;
                            continue;
                        }
                        case LATE_REPLY -> replyNotBefore = System.nanoTime() + late.toNanos();
                        case LATE_REQUEST -> requestNotBefore = System.nanoTime() + late.toNanos();
                        case CUT_AFTER -> cutOnReply = true;
                        case SERVER_PAUSE, SERVER_RESTART, SERVER_RESTORE -> serverFault.accept(fault);
                        default -> {
                        }
                    }
                    long wait = requestNotBefore - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait); // the late request is the fault itself
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // a side closed: the connection ends
            } finally {
                cut();
            }
        }

        private void serverToClient() {
            byte[] buf = new byte[16384];
            try (InputStream in = server.getInputStream()) {
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buf)) >= 0) {
                    clientSpokeLast = false;
                    if (blackhole) {
                        continue;
                    }
                    if (cutOnReply) {
                        cut();
                        return;
                    }
                    long wait = replyNotBefore - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait); // the late reply is the fault itself
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // a side closed: the connection ends
            } finally {
                cut();
            }
        }

        void cut() {
            connections.remove(this);
            try {
                client.setSoLinger(true, 0);
            } catch (IOException e) {
                // already closed
            }
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** Waits until no connection is open through the proxy, for at most {@code within}. */
    boolean awaitIdle(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!connections.isEmpty() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return connections.isEmpty();
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        cutAll();
    }
}
