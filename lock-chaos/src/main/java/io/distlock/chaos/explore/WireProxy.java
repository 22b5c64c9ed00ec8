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
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A loopback TCP proxy between the clients of a scenario and the store's server that counts round trips: a burst of
 * bytes from a client after the server last spoke on that connection (or the first on it) is one request, the step.
 * Step k is the k-th request seen on any connection. When the run is armed with a step and a wire fault, that
 * request's connection gets the fault (lost, answered late, cut); a server fault is handed to a callback at that
 * moment, before the request is passed on. Each client of a run connects on a port of its own ({@link #portFor}), so
 * a fault can act on every connection of the client that made the request (a frozen client).
 */
final class WireProxy implements AutoCloseable {

    private final int serverPort;
    private final int port;
    private final Map<String, Integer> ports = new ConcurrentHashMap<>();
    private final List<ServerSocket> listeners = Collections.synchronizedList(new ArrayList<>());
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger steps = new AtomicInteger();
    private final List<String> labels = Collections.synchronizedList(new ArrayList<>());
    private volatile Supplier<String> label = () -> "";
    private volatile int armedStep = -1;
    private volatile Fault armedFault = Fault.NONE;
    private volatile Duration late = Duration.ZERO;
    private volatile Duration freezeFor = Duration.ZERO;
    private volatile BiConsumer<Fault, String> onStep = (f, client) -> { };
    private volatile int copyStep = -1;
    private volatile Runnable copy = () -> { };
    private volatile String injectedAt = null;
    private volatile String frozen = null;
    private volatile int silenced;
    private volatile long frozenUntil;

    WireProxy(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.port = listen("");
    }

    private int listen(String client) throws IOException {
        int p = FreePorts.next();
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
        listeners.add(listener);
        Thread accept = new Thread(() -> acceptLoop(listener, client), "explore-proxy-" + p);
        accept.setDaemon(true);
        accept.start();
        return p;
    }

    /** The port clients connect to when the run does not tell them apart. */
    int port() {
        return port;
    }

    /** The port client {@code client} connects to: its connections carry its name, for the faults on a client. */
    int portFor(String client) {
        return ports.computeIfAbsent(client, c -> {
            try {
                return listen(c);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** How long a frozen client stays frozen (set before {@link #arm}). */
    void freezeFor(Duration d) {
        this.freezeFor = d;
    }

    /** Also runs {@code copy} when step {@code step} arrives, before it passes (a backup taken mid-run). */
    void armCopy(int step, Runnable copy) {
        this.copy = copy;
        this.copyStep = step;
    }

    /**
     * Starts a run: the step count from 0, steps labelled by {@code label} as they are seen, the fault at
     * {@code step} ({@link Fault#NONE}: none), a late reply held for {@code late}, server faults to
     * {@code onStep} (with the name of the client that made the request) for every fault the proxy does not do
     * itself.
     */
    void arm(int step, Fault fault, Duration late, Supplier<String> label, BiConsumer<Fault, String> onStep) {
        steps.set(0);
        labels.clear();
        injectedAt = null;
        frozen = null;
        copyStep = -1;
        this.label = label;
        this.late = late;
        this.onStep = onStep;
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

    /** How many connections the last {@link Fault#SILENT_DROP} silenced. */
    int silenced() {
        return silenced;
    }

    /** Closes every connection through the proxy (the clients reconnect). */
    void cutAll() {
        connections.forEach(Connection::cut);
    }

    private void acceptLoop(ServerSocket listener, String tag) {
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
                Connection c = new Connection(client, server, tag);
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
        if (step == copyStep) {
            copy.run();
        }
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
        private final String tag;
        private volatile boolean clientSpokeLast;
        private volatile boolean blackhole;
        private volatile boolean cutOnReply;
        private volatile long replyNotBefore;
        private volatile long requestNotBefore;

        Connection(Socket client, Socket server, String tag) {
            this.client = client;
            this.server = server;
            this.tag = tag;
        }

        /** Holds this connection's traffic while its client is frozen (the fault itself). */
        private void awaitThaw() {
            long wait;
            while (tag.equals(frozen) && (wait = frozenUntil - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
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
                        case SILENT_DROP -> {
                            List<Connection> others = connections.stream()
                                    .filter(c -> c != this && c.tag.equals(tag)).toList();
                            others.forEach(c -> c.blackhole = true);
                            silenced = others.size();
                            onStep.accept(fault, tag);
                        }
                        case CLIENT_FREEZE -> {
                            frozenUntil = System.nanoTime() + freezeFor.toNanos();
                            frozen = tag;
                        }
                        case NONE -> {
                        }
                        default -> onStep.accept(fault, tag);
                    }
                    awaitThaw();
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
                    awaitThaw();
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
        synchronized (listeners) {
            for (ServerSocket listener : listeners) {
                try {
                    listener.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
        cutAll();
    }
}
