package io.distlock.bench.core;

import java.nio.charset.StandardCharsets;

/**
 * The store's wire protocol, as far as the counting proxy needs it: how to find, in the bytes a client sends, the
 * requests the server executes (Redis commands, SQL statements executed, ZooKeeper requests other than pings). This
 * counts the server's work per operation exactly, for one client only, even on a server other processes share;
 * the server's own global counters ({@code INFO commandstats}, {@code pg_stat_database}, {@code SHOW GLOBAL
 * STATUS}) count every process's traffic and, on PostgreSQL, lag by up to seconds.
 */
public enum WireProtocol {
    /** No parsing: no request count. */
    NONE,
    /** Redis RESP: every top-level command (array or inline) counts. */
    REDIS,
    /** PostgreSQL frontend protocol: every Execute ('E') and simple Query ('Q') message counts. */
    POSTGRESQL,
    /** MySQL/MariaDB client protocol: every COM_QUERY and COM_STMT_EXECUTE command counts. */
    MYSQL,
    /** ZooKeeper jute framing: every request after the connect request counts, pings excepted. */
    ZOOKEEPER;

    /** A counter for one new connection's client-to-server byte stream. */
    public Parser newParser() {
        return switch (this) {
            case NONE -> (b, off, n) -> 0;
            case REDIS -> new Resp();
            case POSTGRESQL -> new Postgres();
            case MYSQL -> new MySql();
            case ZOOKEEPER -> new ZooKeeper();
        };
    }

    /**
     * A counter of the messages the server pushes unasked in one new connection's server-to-client byte stream, for a
     * protocol whose frames mark them (ZooKeeper: watch events), or null: the proxy then counts a read from the server
     * that answers no request burst as one ({@link RoundTripProxy#pushes}), which also counts the later parts of a
     * reply split over reads.
     */
    public Parser newPushParser() {
        return this == ZOOKEEPER ? new ZooKeeperEvents() : null;
    }

    /** Parses one connection's client-to-server stream chunk by chunk. */
    public interface Parser {
        /** Consumes {@code n} bytes at {@code off} and returns how many requests they completed or began. */
        int read(byte[] bytes, int off, int n);
    }

    /** RESP commands: {@code *N} then N bulk strings; anything else up to a newline is an inline command. */
    static final class Resp implements Parser {
        private final StringBuilder line = new StringBuilder();
        private long skip;
        private long elements;

        @Override
        public int read(byte[] b, int off, int n) {
            int count = 0;
            int i = off;
            int end = off + n;
            while (i < end) {
                if (skip > 0) {
                    int k = (int) Math.min(skip, end - i);
                    skip -= k;
                    i += k;
                    if (skip == 0) {
                        elements--;
                    }
                    continue;
                }
                char c = (char) (b[i++] & 0xFF);
                if (c != '\n') {
                    if (c != '\r' && line.length() < 32) {
                        line.append(c);
                    }
                    continue;
                }
                String text = line.toString();
                line.setLength(0);
                if (text.isEmpty()) {
                    continue;
                }
                if (elements <= 0 && text.charAt(0) == '*') {
                    count++;
                    elements = parse(text);
                } else if (text.charAt(0) == '$' && elements > 0) {
                    long length = parse(text);
                    if (length < 0) {
                        elements--;
                    } else {
                        skip = length + 2;
                    }
                } else if (elements <= 0) {
                    count++; // an inline command
                } else {
                    elements--; // an integer or simple string element (not sent by clients)
                }
            }
            return count;
        }

        private static long parse(String text) {
            try {
                return Long.parseLong(text.substring(1).trim());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }

    /** Length-prefixed frames: a fixed header read whole, then a body skipped. */
    abstract static class Framed implements Parser {
        private final byte[] header = new byte[16];
        private int have;
        private long skip;

        /** Bytes of header needed before {@link #onHeader} can decide. */
        abstract int headerLength();

        /** Looks at a complete header; returns the body bytes to skip; counts through {@link #counted}. */
        abstract long onHeader(byte[] header);

        int counted;

        @Override
        public int read(byte[] b, int off, int n) {
            counted = 0;
            int i = off;
            int end = off + n;
            while (i < end) {
                if (skip > 0) {
                    int k = (int) Math.min(skip, end - i);
                    skip -= k;
                    i += k;
                    continue;
                }
                header[have++] = b[i++];
                if (have == headerLength()) {
                    skip = Math.max(0, onHeader(header));
                    have = 0;
                }
            }
            return counted;
        }

        static int int32(byte[] b, int at) {
            return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
        }
    }

    /** PostgreSQL: untyped startup messages (SSL/GSS requests, then the startup message), then typed messages. */
    static final class Postgres extends Framed {
        private boolean startup = true;

        @Override
        int headerLength() {
            return startup ? 8 : 5;
        }

        @Override
        long onHeader(byte[] h) {
            if (startup) {
                int length = int32(h, 0);
                int code = int32(h, 4);
                if (code != 80877103 && code != 80877104) { // not SSLRequest / GSSENCRequest: the startup message
                    startup = false;
                }
                return length - 8L;
            }
            if (h[0] == 'E' || h[0] == 'Q') {
                counted++;
            }
            return int32(h, 1) - 4L;
        }
    }

    /** MySQL/MariaDB: 3-byte little-endian length, sequence id, then the payload whose first byte is the command. */
    static final class MySql extends Framed {
        private static final int COM_QUERY = 0x03;
        private static final int COM_STMT_EXECUTE = 0x17;

        @Override
        int headerLength() {
            return 5;
        }

        @Override
        long onHeader(byte[] h) {
            int length = (h[0] & 0xFF) | ((h[1] & 0xFF) << 8) | ((h[2] & 0xFF) << 16);
            int sequence = h[3] & 0xFF;
            int command = h[4] & 0xFF;
            if (sequence == 0 && (command == COM_QUERY || command == COM_STMT_EXECUTE)) {
                counted++;
            }
            return length - 1L;
        }
    }

    /** ZooKeeper: 4-byte length, then (after the connect request) xid and request type. */
    static final class ZooKeeper extends Framed {
        private static final int PING = 11;
        private boolean connected;

        @Override
        int headerLength() {
            return 12;
        }

        @Override
        long onHeader(byte[] h) {
            int length = int32(h, 0);
            int type = int32(h, 8);
            if (connected && type != PING) {
                counted++;
            }
            connected = true;
            return length - 8L;
        }
    }

    /**
     * ZooKeeper's replies: 4-byte length, then (after the connect reply, its length only) the reply header's xid, which
     * is -1 in a watch event, the only message a ZooKeeper server sends unasked.
     */
    static final class ZooKeeperEvents extends Framed {
        private static final int NOTIFICATION = -1;
        private boolean connected;

        @Override
        int headerLength() {
            return connected ? 8 : 4;
        }

        @Override
        long onHeader(byte[] h) {
            int length = int32(h, 0);
            if (!connected) {
                connected = true;
                return length;
            }
            if (int32(h, 4) == NOTIFICATION) {
                counted++;
            }
            return length - 4L;
        }
    }

    /** For tests: the RESP bytes of a command. */
    static byte[] resp(String... args) {
        StringBuilder s = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            s.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }
}
