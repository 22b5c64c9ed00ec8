package io.distlock.bench.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The proxy forwards bytes both ways, counts one round trip per request burst and the bytes each way, and with a
 * delay holds data that long each way, against a real echo server.
 */
class RoundTripProxyTest {

    @Test
    void delayedProxyAddsItsDelayEachWayAndKeepsBytesInOrder() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            startEcho(echo);
            try (RoundTripProxy proxy = new RoundTripProxy(new HostPort("127.0.0.1", echo.getLocalPort()),
                    Duration.ofMillis(20), WireProtocol.NONE);
                 Socket client = new Socket(proxy.address().host(), proxy.address().port())) {
                InputStream in = client.getInputStream();
                OutputStream out = client.getOutputStream();
                long start = System.nanoTime();
                out.write(new byte[] {'a', 'b'});
                out.flush();
                out.write(new byte[] {'c'});
                out.flush();
                assertThat(in.readNBytes(3)).isEqualTo(new byte[] {'a', 'b', 'c'});
                long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                assertThat(elapsedMillis).as("a round trip through a 20 ms-each-way proxy").isGreaterThanOrEqualTo(40);
                assertThat(proxy.bytesUp()).isEqualTo(3);
                assertThat(proxy.bytesDown()).isEqualTo(3);
            }
        }
    }

    private static void startEcho(ServerSocket echo) {
        Thread server = new Thread(() -> {
            try (Socket s = echo.accept(); InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream()) {
                byte[] buffer = new byte[64];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (Exception e) {
                // the client closed
            }
        });
        server.setDaemon(true);
        server.start();
    }

    @Test
    void countsOneRoundTripPerRequestAnswered() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (Socket s = echo.accept(); InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream()) {
                    byte[] buffer = new byte[64];
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (Exception e) {
                    // the client closed
                }
            });
            server.setDaemon(true);
            server.start();
            try (RoundTripProxy proxy = new RoundTripProxy(new HostPort("127.0.0.1", echo.getLocalPort()));
                 Socket client = new Socket(proxy.address().host(), proxy.address().port())) {
                InputStream in = client.getInputStream();
                OutputStream out = client.getOutputStream();
                for (int i = 0; i < 3; i++) {
                    out.write(new byte[] {'p', 'i', 'n', 'g'});
                    out.flush();
                    assertThat(in.readNBytes(4)).isEqualTo(new byte[] {'p', 'i', 'n', 'g'});
                }
                assertThat(proxy.roundTrips()).isEqualTo(3);
                assertThat(proxy.bytesUp()).isEqualTo(12);
                assertThat(proxy.bytesDown()).isEqualTo(12);
                assertThat(proxy.pushes()).as("replies are not pushes").isZero();
            }
        }
    }
}
