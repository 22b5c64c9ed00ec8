package io.distlock.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes credentials written inside a JDBC URL ({@code jdbc:mysql://user:secret@host/db}, H2's
 * {@code ;USER=sa;PASSWORD=secret}) out of it, so they reach the driver as the pool's user and password, which
 * HikariCP never logs, instead of as part of the URL, which it logs at debug level. {@code password=} query
 * parameters stay: HikariCP masks them itself.
 *
 * @param url the URL without those credentials
 * @param user the user taken out, or null
 * @param password the password taken out, or null
 */
record UrlCredentials(String url, String user, String password) {

    private static final Pattern USERINFO = Pattern.compile("^(jdbc:[A-Za-z0-9]+://)([^/@?#;]*)@");
    private static final Pattern H2_USER = Pattern.compile("(?i);USER=([^;?]*)");
    private static final Pattern H2_PASSWORD = Pattern.compile("(?i);PASSWORD=([^;?]*)");

    /** Splits {@code url}; returns it unchanged (and null credentials) when it holds none. */
    static UrlCredentials split(String url) {
        Matcher userinfo = USERINFO.matcher(url);
        if (userinfo.find()) {
            String info = userinfo.group(2);
            int colon = info.indexOf(':');
            String user = decode(colon < 0 ? info : info.substring(0, colon));
            String password = colon < 0 ? null : decode(info.substring(colon + 1));
            return new UrlCredentials(userinfo.group(1) + url.substring(userinfo.end()), user, password);
        }
        if (url.regionMatches(true, 0, "jdbc:h2:", 0, 8)) {
            String user = null;
            String password = null;
            Matcher u = H2_USER.matcher(url);
            if (u.find()) {
                user = u.group(1);
                url = u.replaceFirst("");
            }
            Matcher p = H2_PASSWORD.matcher(url);
            if (p.find()) {
                password = p.group(1);
                url = p.replaceFirst("");
            }
            return new UrlCredentials(url, user, password);
        }
        return new UrlCredentials(url, null, null);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "UrlCredentials[" + url + ", user=" + user + ", password=" + (password == null ? "none" : "***") + "]";
    }
}
