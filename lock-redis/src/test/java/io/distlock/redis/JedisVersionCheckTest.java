package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.LockStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * An application whose build picks Jedis 7 (Spring Boot 4.0's managed version) gets one sentence naming the property
 * to set when it opens a Redis store, not a {@code NoClassDefFoundError} from inside the store.
 */
class JedisVersionCheckTest {

    @Test
    void openingARedisStoreOnJedis7SaysWhichVersionToSet() throws Exception {
        Path jedis7 = Path.of("target/boot-managed-jedis/jedis-7.0.0.jar");
        assertThat(jedis7).as("copied by the pom's boot-managed-jedis execution").exists();
        URL[] classPath = {
                codeSource(LockStore.class), codeSource(RedisLockStoreProvider.class), jedis7.toUri().toURL(),
                codeSource(org.apache.commons.pool2.ObjectPool.class), codeSource(org.slf4j.Logger.class),
                codeSource(com.google.gson.Gson.class), codeSource(org.json.JSONObject.class)};
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader app = new URLClassLoader("jedis7-app", classPath, ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(app);
            Method open = app.loadClass(LockStore.class.getName()).getMethod("open", String.class);
            Throwable thrown = catchThrowable(() -> open.invoke(null, "redis://127.0.0.1:6379"));
            Throwable cause = thrown instanceof InvocationTargetException ite ? ite.getCause() : thrown;

            assertThat(cause).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("needs Jedis 8 but found Jedis 7.0.0")
                    .hasMessageContaining("<jedis.version>" + JedisVersionCheck.TESTED_VERSION + "</jedis.version>");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static URL codeSource(Class<?> type) throws Exception {
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(Files.exists(location)).as("class path entry of %s", type).isTrue();
        return location.toUri().toURL();
    }
}
