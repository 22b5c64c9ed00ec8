package io.distlock.bench.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The proxy's request counters find the requests in each protocol's client byte stream, also when a request is
 * split over reads, and leave out what the server does not execute as a request (handshakes, pings).
 */
class WireProtocolTest {

    @Test
    void redisCountsEachCommandEvenSplitAcrossReads() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(WireProtocol.resp("EVALSHA", "abc", "1", "key\r\n*3", "token"));
        stream.writeBytes(WireProtocol.resp("PING"));
        stream.writeBytes("PING\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(countInPieces(WireProtocol.REDIS, stream.toByteArray(), 3)).isEqualTo(3);
        assertThat(countInPieces(WireProtocol.REDIS, stream.toByteArray(), 1000)).isEqualTo(3);
    }

    @Test
    void postgresCountsExecuteAndQueryMessagesAfterTheStartup() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(ByteBuffer.allocate(8).putInt(8).putInt(80877103).array()); // SSLRequest
        s.writeBytes(ByteBuffer.allocate(12).putInt(12).putInt(196608).putInt(0).array()); // startup
        s.writeBytes(typed('P', 10));
        s.writeBytes(typed('B', 6));
        s.writeBytes(typed('E', 5));
        s.writeBytes(typed('S', 0));
        s.writeBytes(typed('Q', 20));
        s.writeBytes(typed('X', 0));
        assertThat(countInPieces(WireProtocol.POSTGRESQL, s.toByteArray(), 2)).isEqualTo(2);
    }

    @Test
    void mysqlCountsQueriesAndExecutesButNotTheHandshake() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(packet(1, 0x03, 30)); // handshake response (sequence 1), first byte happens to be 0x03
        s.writeBytes(packet(0, 0x03, 12)); // COM_QUERY
        s.writeBytes(packet(0, 0x16, 12)); // COM_STMT_PREPARE
        s.writeBytes(packet(0, 0x17, 9)); // COM_STMT_EXECUTE
        s.writeBytes(packet(0, 0x0e, 0)); // COM_PING
        assertThat(countInPieces(WireProtocol.MYSQL, s.toByteArray(), 4)).isEqualTo(2);
    }

    @Test
    void zookeeperCountsRequestsButNotTheConnectRequestOrPings() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(zk(0, 0, 40)); // connect request
        s.writeBytes(zk(1, 1, 30)); // create
        s.writeBytes(zk(-2, 11, 0)); // ping
        s.writeBytes(zk(2, 2, 12)); // delete
        assertThat(countInPieces(WireProtocol.ZOOKEEPER, s.toByteArray(), 5)).isEqualTo(2);
    }

    @Test
    void zookeeperPushesAreWatchEventsOnlyNotRepliesSplitAcrossReads() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(ByteBuffer.allocate(4 + 36).putInt(36).putInt(-1).array()); // connect reply: no reply header
        s.writeBytes(zkReply(1, 120)); // the reply to a listing, long enough to be split over reads
        s.writeBytes(zkReply(-1, 40)); // a watch event (NodeDeleted)
        s.writeBytes(zkReply(-2, 0)); // a ping's reply
        s.writeBytes(zkReply(2, 4)); // the reply to a delete
        s.writeBytes(zkReply(-1, 40)); // another watch event
        byte[] bytes = s.toByteArray();
        assertThat(countPushesInPieces(WireProtocol.ZOOKEEPER, bytes, 7)).isEqualTo(2);
        assertThat(countPushesInPieces(WireProtocol.ZOOKEEPER, bytes, bytes.length)).isEqualTo(2);
        assertThat(WireProtocol.REDIS.newPushParser()).as("no marked pushes: the proxy guesses them").isNull();
    }

    private static int countPushesInPieces(WireProtocol protocol, byte[] bytes, int piece) {
        return countInPieces(protocol.newPushParser(), bytes, piece);
    }

    private static int countInPieces(WireProtocol protocol, byte[] bytes, int piece) {
        return countInPieces(protocol.newParser(), bytes, piece);
    }

    private static int countInPieces(WireProtocol.Parser parser, byte[] bytes, int piece) {
        int count = 0;
        for (int off = 0; off < bytes.length; off += piece) {
            count += parser.read(bytes, off, Math.min(piece, bytes.length - off));
        }
        return count;
    }

    private static byte[] typed(char type, int body) {
        return ByteBuffer.allocate(5 + body).put((byte) type).putInt(4 + body).array();
    }

    private static byte[] packet(int sequence, int command, int more) {
        int length = 1 + more;
        byte[] p = new byte[4 + length];
        p[0] = (byte) length;
        p[1] = (byte) (length >> 8);
        p[2] = (byte) (length >> 16);
        p[3] = (byte) sequence;
        p[4] = (byte) command;
        return p;
    }

    /** A server frame: length, then the reply header (xid, zxid, error), then {@code more} bytes. */
    private static byte[] zkReply(int xid, int more) {
        return ByteBuffer.allocate(20 + more).putInt(16 + more).putInt(xid).putLong(7).putInt(0).array();
    }

    private static byte[] zk(int xid, int type, int more) {
        return ByteBuffer.allocate(12 + more).putInt(8 + more).putInt(xid).putInt(type).array();
    }
}
