package io.distlock.tck.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The class path handed to child JVMs names its files absolutely, whatever directory the child starts in. */
class JvmClassPathTest {

    @Test
    void relativeEntriesBecomeAbsoluteAndAbsoluteOnesStay() {
        String absolute = Path.of("/opt/libs/a.jar").toString();
        String given = "lock-cli/target/distlock.jar" + File.pathSeparator + absolute;

        String result = JvmClassPath.absolute(given);

        assertThat(result.split(File.pathSeparator)).containsExactly(
                Path.of("lock-cli/target/distlock.jar").toAbsolutePath().toString(), absolute);
    }
}
