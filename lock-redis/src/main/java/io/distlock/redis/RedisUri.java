package io.distlock.redis;

import io.distlock.spi.StoreUri;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.HostAndPort;

/**
 * A Redis store URI taken apart: scheme, optional user and password, one or more {@code host:port} pairs, the path
 * (database number or Sentinel master name) and the options. The password is kept out of {@link #toString()}.
 *
 * @param scheme the scheme in lower case
 * @param user the user name, or null
 * @param password the password, or null (never log it)
 * @param hosts the hosts, at least one
 * @param path the part after the hosts without its leading slash, or an empty string
 * @param options the query options
 * @param redacted the URI without its password, for messages
 */
record RedisUri(String scheme, String user, String password, List<HostAndPort> hosts, String path,
        RedisOptions options, String redacted) {

    /** The default Redis port. */
    static final int DEFAULT_PORT = 6379;

    /**
     * Parses a {@code redis}-family URI.
     *
     * @throws IllegalArgumentException naming what is wrong (without the password)
     */
    static RedisUri parse(StoreUri uri) {
        String redacted = uri.redacted();
        String rest = uri.withoutQuery();
        if (!rest.startsWith("//")) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' must look like " + uri.scheme()
                    + "://host:port");
        }
        rest = rest.substring(2);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        String user = null;
        String password = null;
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
            if (colon < 0) { // the URI is not shown: a lone part before '@' may well be a password
                throw new IllegalArgumentException("a " + uri.scheme() + ":// store uri has user info without a colon"
                        + " before '@'; write " + uri.scheme() + "://user:password@host or " + uri.scheme()
                        + "://:password@host");
            }
            if (user.isEmpty()) {
                user = null;
            }
        }
        if (authority.isEmpty()) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' names no host; expected for example "
                    + uri.scheme() + "://localhost:6379");
        }
        List<HostAndPort> hosts = new ArrayList<>();
        for (String hostPort : authority.split(",")) {
            hosts.add(parseHost(hostPort.strip(), redacted));
        }
        return new RedisUri(uri.scheme().toLowerCase(Locale.ROOT), user, password, List.copyOf(hosts), path,
                RedisOptions.parse(uri.params(), redacted), redacted);
    }

    private static HostAndPort parseHost(String hostPort, String redacted) {
        if (hostPort.isEmpty()) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' has an empty host in its host list");
        }
        String host = hostPort;
        String port = null;
        if (hostPort.startsWith("[")) { // [::1]:6379
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("redis store uri '" + redacted + "' has an unclosed IPv6 host '"
                        + hostPort + "'");
            }
            host = hostPort.substring(1, close);
            if (close + 1 < hostPort.length()) {
                if (hostPort.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("redis store uri '" + redacted + "' has a malformed host '"
                            + hostPort + "'");
                }
                port = hostPort.substring(close + 2);
            }
        } else {
            int colon = hostPort.lastIndexOf(':');
            if (colon >= 0) {
                host = hostPort.substring(0, colon);
                port = hostPort.substring(colon + 1);
            }
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' has an empty host name in '"
                    + hostPort + "'");
        }
        return new HostAndPort(host, port == null ? DEFAULT_PORT : parsePort(port, hostPort, redacted));
    }

    private static int parsePort(String port, String hostPort, String redacted) {
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' has an invalid port in '"
                    + hostPort + "': expected a number from 1 to 65535");
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The database number from the path ({@code redis://host/2}), 0 when absent. */
    int database() {
        if (path.isEmpty()) {
            return 0;
        }
        try {
            int db = Integer.parseInt(path);
            if (db < 0) {
                throw new NumberFormatException();
            }
            return db;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' has '/" + path
                    + "' where a database number (0, 1, ...) is expected");
        }
    }

    /** The only host, or an error if the URI lists several. */
    HostAndPort singleHost() {
        if (hosts.size() != 1) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' lists " + hosts.size()
                    + " hosts; " + scheme + ":// takes one (use redis-cluster://, redis-sentinel:// or redlock:// "
                    + "for several)");
        }
        return hosts.get(0);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return redacted;
    }
}
