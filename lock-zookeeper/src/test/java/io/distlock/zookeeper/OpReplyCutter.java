package io.distlock.zookeeper;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback proxy in front of one ZooKeeper server that faults the next request of one op code for real:
 * {@link #loseReplyOfNext} forwards the request, swallows the server's
 * reply (the server applied it, the client never hears) and closes the connection, then refuses new connections until
 * {@link #restore()} if asked to stay down; {@link #holdNext} stops forwarding that connection's requests at that one
 * (a server that stopped reading this client) until {@link #resume()}. Frames are read whole: a request starts with
 * its xid and op code, a reply with the xid it answers.
 */
final class OpReplyCutter implements AutoCloseable {

    static final int DELETE = 2;
    static final int MULTI = 14;
    static final int CREATE2 = 15;

    private static final int NONE = Integer.MIN_VALUE;

    private final ServerSocket listening;
    private final int serverPort;
    private final List<Socket> sockets = new ArrayList<>();
    /** The op code whose next request's reply is lost, or NONE. */
    private final AtomicInteger loseOp = new AtomicInteger(NONE);
    /** The op code whose next request is held with every request behind it, or NONE. */
    private final AtomicInteger holdOp = new AtomicInteger(NONE);
    private volatile boolean stayDown;
    private volatile CountDownLatch cut = new CountDownLatch(1);
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile CountDownLatch resumed = new CountDownLatch(1);
    private volatile boolean down;

    /** Starts a proxy to the server listening on {@code serverPort} of this host. */
    OpReplyCutter(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "op-reply-cutter");
        accepting.setDaemon(true);
        accepting.start();
    }

    /** The connect string that reaches the server through this proxy. */
    String connectString() {
        return "127.0.0.1:" + listening.getLocalPort();
    }

    /** Loses the reply of the next request of {@code op}; stays down then until {@link #restore()} if asked. */
    void loseReplyOfNext(int op, boolean thenStayDown) {
        cut = new CountDownLatch(1);
        stayDown = thenStayDown;
        loseOp.set(op);
    }

    /** Counted down once a reply was swallowed and its connection closed. */
    CountDownLatch cut() {
        return cut;
    }

    /** Holds the next request of {@code op} and every request after it on its connection until {@link #resume()}. */
    void holdNext(int op) {
        held = new CountDownLatch(1);
        resumed = new CountDownLatch(1);
        holdOp.set(op);
    }

    /** Counted down once a request is being held. */
    CountDownLatch held() {
        return held;
    }

    /** Forwards the held requests. */
    void resume() {
        resumed.countDown();
    }

    /** Lets clients connect again. */
    void restore() {
        down = false;
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                if (down) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                int[] cutXid = {NONE};
                start(() -> pumpRequests(client, server, cutXid), "up");
                start(() -> pumpReplies(server, client, cutXid), "down");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pumpRequests(Socket from, Socket to, int[] cutXid) {
        try {
            DataInputStream in = new DataInputStream(from.getInputStream());
            DataOutputStream out = new DataOutputStream(to.getOutputStream());
            boolean first = true; // the connect request has no xid and op code
            while (true) {
                byte[] frame = readFrame(in);
                if (!first && frame.length >= 8) {
                    int op = int32(frame, 4);
                    if (op == loseOp.get() && loseOp.compareAndSet(op, NONE)) {
                        synchronized (cutXid) {
                            cutXid[0] = int32(frame, 0);
                        }
                    }
                    if (op == holdOp.get() && holdOp.compareAndSet(op, NONE)) {
                        held.countDown();
                        resumed.await();
                    }
                }
                first = false;
                writeFrame(out, frame);
            }
        } catch (IOException | InterruptedException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void pumpReplies(Socket from, Socket to, int[] cutXid) {
        try {
            DataInputStream in = new DataInputStream(from.getInputStream());
            DataOutputStream out = new DataOutputStream(to.getOutputStream());
            boolean first = true; // the connect reply has no xid
            while (true) {
                byte[] frame = readFrame(in);
                int xid;
                synchronized (cutXid) {
                    xid = cutXid[0];
                }
                if (!first && frame.length >= 4 && xid != NONE && int32(frame, 0) == xid) {
                    down = stayDown; // the request was applied: its reply is lost with the connection
                    closeQuietly(to);
                    closeQuietly(from);
                    cut.countDown();
                    return;
                }
                first = false;
                writeFrame(out, frame);
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    private static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    private static int int32(byte[] bytes, int at) {
        return ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
                | (bytes[at + 3] & 0xff);
    }

    private static void start(Runnable pump, String direction) {
        Thread t = new Thread(pump, "op-reply-cutter-" + direction);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        resumed.countDown();
        listening.close();
        synchronized (sockets) {
            sockets.forEach(OpReplyCutter::closeQuietly);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
