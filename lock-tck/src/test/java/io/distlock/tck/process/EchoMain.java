package io.distlock.tck.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A child JVM for {@link JvmProcessTest}: reads the store URI, answers its length, then echoes every line. */
public final class EchoMain {

    private EchoMain() {
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("URI " + JvmProcess.readStoreUri(in).length());
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println("ECHO " + line);
            System.out.flush();
        }
    }
}
