package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes every secret written inside a JDBC URL out of it: the user info ({@code jdbc:mysql://user:secret@host/db},
 * a password with raw {@code @ / ? # %} included), H2's {@code ;USER=sa;PASSWORD=secret}, and every secret-bearing
 * query parameter ({@code password}, {@code sslpassword}, {@code trustCertificateKeyStorePassword}, ...). They
 * reach the driver as connection properties instead, so neither the pool's log lines nor a driver's error message
 * that quotes the URL can show them.
 *
 * @param url the URL without those secrets
 * @param user the user taken out, or null
 * @param password the password taken out, or null
 * @param secretParameters secret-bearing query parameters taken out (name to decoded value), in order
 */
record UrlCredentials(String url, String user, String password, Map<String, String> secretParameters) {

    private static final Pattern H2_USER = Pattern.compile("(?i);USER=([^;?]*)");
    private static final Pattern H2_PASSWORD = Pattern.compile("(?i);PASSWORD=([^;?]*)");

    /** Splits {@code url}; returns it unchanged (and no credentials) when it holds none. */
    static UrlCredentials split(String url) {
        StoreUri parsed = StoreUri.parse(url);
        String userInfo = parsed.userInfo();
        String user = null;
        String password = null;
        String rest = url;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = StoreUri.decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : StoreUri.decode(userInfo.substring(colon + 1));
            rest = parsed.withoutUserInfo();
        } else if (url.regionMatches(true, 0, "jdbc:h2:", 0, 8)) {
            Matcher u = H2_USER.matcher(rest);
            if (u.find()) {
                user = u.group(1);
                rest = u.replaceFirst("");
            }
            Matcher p = H2_PASSWORD.matcher(rest);
            if (p.find()) {
                password = p.group(1);
                rest = p.replaceFirst("");
            }
        }
        Map<String, String> secrets = new LinkedHashMap<>();
        StoreUri withoutUser = StoreUri.parse(rest);
        String query = withoutUser.query();
        if (!query.isEmpty()) {
            List<String> kept = new ArrayList<>();
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = StoreUri.decode(eq < 0 ? pair : pair.substring(0, eq));
                if (eq > 0 && StoreUri.isSecretParameter(name)) {
                    secrets.put(name, StoreUri.decode(pair.substring(eq + 1)));
                } else if (!pair.isEmpty()) {
                    kept.add(pair);
                }
            }
            String base = "jdbc:" + withoutUser.withoutQuery();
            rest = kept.isEmpty() ? base : base + "?" + String.join("&", kept);
        }
        return new UrlCredentials(rest, user, password, Map.copyOf(secrets));
    }

    /** Never shows a secret. */
    @Override
    public String toString() {
        return "UrlCredentials[" + url + ", user=" + user + ", password=" + (password == null ? "none" : "***")
                + ", secret parameters=" + secretParameters.keySet() + "]";
    }
}
