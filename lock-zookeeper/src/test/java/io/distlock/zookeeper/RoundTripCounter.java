package io.distlock.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A loopback proxy in front of one ZooKeeper server that counts the round trips and requests of the clients that
 * connect through it, as lock-bench's proxy does: a round trip is a burst of bytes a client sends after it last
 * received (requests sent together, before their replies came, count once); a request is a frame the client sends
 * after its connect request, pings left out; a notification is a frame the server sends with xid -1 in its reply
 * header (a watch event). Counted per client connection, so no other client's traffic counts.
 */
final class RoundTripCounter implements AutoCloseable {

    /** ZooKeeper's request type of a ping, which the client sends on its own when it is idle. */
    private static final int PING = 11;

    private final ServerSocket listening;
    private final int serverPort;
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong notifications = new AtomicLong();
    private final List<Socket> sockets = new ArrayList<>();
    /** Every round trip as {@code |} and the request types sent in it (ZooKeeper's op codes), for messages. */
    private final StringBuffer trace = new StringBuffer();

    /** Starts a proxy to the server listening on {@code serverPort} of this host. */
    RoundTripCounter(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "round-trip-counter");
        accepting.setDaemon(true);
        accepting.start();
    }

    /** The connect string that reaches the server through this proxy. */
    String connectString() {
        return "127.0.0.1:" + listening.getLocalPort();
    }

    /** Request bursts sent so far. */
    long roundTrips() {
        return roundTrips.get();
    }

    /**
     * The round trips and request types sent so far: {@code |} for each round trip, then the op code of each
     * request (ZooKeeper's {@code ZooDefs.OpCode}: 1 create, 2 delete, 3 exists, 4 getData, 5 setData, 8
     * getChildren, 14 multi, 15 create2, 19 createContainer).
     */
    String trace() {
        return trace.toString();
    }

    /** Requests other than pings sent so far. */
    long requests() {
        return requests.get();
    }

    /** Watch events the server sent so far (frames with xid -1). */
    long notifications() {
        return notifications.get();
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                Connection connection = new Connection();
                pump(client, server, connection, true);
                pump(server, client, connection, false);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, Connection connection, boolean up) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[65536];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    connection.count(up, buffer, n);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed: the other pump ends when its socket is closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "round-trip-counter-" + (up ? "up" : "down"));
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listening.close();
        synchronized (sockets) {
            sockets.forEach(RoundTripCounter::closeQuietly);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** One client connection: whether it is sending a burst, and where it is in its streams of frames each way. */
    private final class Connection {
        /** The xid of a watch event in the server's reply header. */
        private static final int NOTIFICATION = -1;
        private boolean sending;
        /** Requests: 4-byte length, then xid and type, the rest skipped; the connect request has no header. */
        private final Frames up = new Frames(12, header -> {
            if (int32(header, 8) != PING) {
                requests.incrementAndGet();
                trace.append(' ').append(int32(header, 8));
            }
        });
        /** Replies: 4-byte length, then xid (then zxid and error); the connect reply has no header. */
        private final Frames down = new Frames(8, header -> {
            if (int32(header, 4) == NOTIFICATION) {
                notifications.incrementAndGet();
            }
        });

        synchronized void count(boolean toServer, byte[] bytes, int n) {
            if (!toServer) {
                sending = false;
                down.read(bytes, n);
                return;
            }
            if (!sending) {
                sending = true;
                roundTrips.incrementAndGet();
                trace.append(" |");
            }
            up.read(bytes, n);
        }
    }

    /** One direction's stream of ZooKeeper frames: the connect frame (its length only), then frames with a header. */
    private static final class Frames {
        private final byte[] header;
        private final Consumer<byte[]> onHeader;
        private boolean connected;
        private int headerRead;
        private long skip;

        Frames(int headerLength, Consumer<byte[]> onHeader) {
            this.header = new byte[headerLength];
            this.onHeader = onHeader;
        }

        void read(byte[] bytes, int n) {
            int at = 0;
            while (at < n) {
                if (skip > 0) {
                    int skipped = (int) Math.min(skip, n - at);
                    skip -= skipped;
                    at += skipped;
                    continue;
                }
                int wanted = connected ? header.length : 4;
                int copied = Math.min(wanted - headerRead, n - at);
                System.arraycopy(bytes, at, header, headerRead, copied);
                headerRead += copied;
                at += copied;
                if (headerRead == wanted) {
                    frame(wanted);
                }
            }
        }

        /** A frame's header is read: hand it on (the connect frame's is its length only), and skip the rest. */
        private void frame(int read) {
            if (connected) {
                onHeader.accept(header);
            }
            connected = true;
            skip = int32(header, 0) - (read - 4L);
            headerRead = 0;
        }
    }

    private static int int32(byte[] header, int at) {
        return ((header[at] & 0xff) << 24) | ((header[at + 1] & 0xff) << 16) | ((header[at + 2] & 0xff) << 8)
                | (header[at + 3] & 0xff);
    }
}
