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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A loopback proxy in front of one ZooKeeper server that can lose the reply of a create for real: once armed, it
 * forwards the next create request (op code 15, create2) to the server, swallows the server's reply to it (so the node
 * exists and the client never hears of it), closes the connection, and then refuses every new connection until
 * {@link #restore()}: to the client, the server went away right after applying its create and stays away. Frames are
 * read whole in both directions (ZooKeeper's 4-byte length, then the body: a request starts with its xid and op code,
 * a reply with the xid it answers).
 */
final class CreateReplyCutter implements AutoCloseable {

    private static final int CREATE2 = 15;

    private final ServerSocket listening;
    private final int serverPort;
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    private final CountDownLatch cut = new CountDownLatch(1);
    private volatile boolean down;

    /** Starts a proxy to the server listening on {@code serverPort} of this host. */
    CreateReplyCutter(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "create-reply-cutter");
        accepting.setDaemon(true);
        accepting.start();
    }

    /** The connect string that reaches the server through this proxy. */
    String connectString() {
        return "127.0.0.1:" + listening.getLocalPort();
    }

    /** Loses the reply of the next create, then stays down until {@link #restore()}. */
    void cutAfterNextCreate() {
        armed.set(true);
    }

    /** The latch counted down once a create's reply was swallowed and the connection closed. */
    CountDownLatch cut() {
        return cut;
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
                    closeQuietly(client); // the server is "gone": the client's connect fails
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                int[] cutXid = {Integer.MIN_VALUE};
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
                if (!first && frame.length >= 8 && int32(frame, 4) == CREATE2 && armed.compareAndSet(true, false)) {
                    synchronized (cutXid) {
                        cutXid[0] = int32(frame, 0);
                    }
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
                if (!first && frame.length >= 4 && xid != Integer.MIN_VALUE && int32(frame, 0) == xid) {
                    down = true; // the create was applied: its reply is lost with the connection
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
        Thread t = new Thread(pump, "create-reply-cutter-" + direction);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listening.close();
        synchronized (sockets) {
            sockets.forEach(CreateReplyCutter::closeQuietly);
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
