package io.distlock.bench.core;

/** Where a store listens (or a proxy in front of it). */
public record HostPort(String host, int port) {

    /** Parses {@code host:port}. */
    public static HostPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        try {
            return new HostPort(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port of '" + text + "' is not a number", e);
        }
    }

    /** Fills {@code {host}} and {@code {port}} in a URI template. */
    public String fill(String template) {
        return template.replace("{host}", host).replace("{port}", Integer.toString(port));
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
