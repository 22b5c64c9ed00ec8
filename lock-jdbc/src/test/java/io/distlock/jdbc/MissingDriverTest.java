package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.LockStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * lock-jdbc leaves the driver to the application: opening a store whose driver is missing says in one line which
 * dependency to add. The store is opened in a class loader of its own that has lock-jdbc and HikariCP but no driver.
 */
class MissingDriverTest {

    @ParameterizedTest
    @CsvSource({
            "jdbc:postgresql://127.0.0.1:5432/test?user=postgres, org.postgresql:postgresql",
            "jdbc:mysql://127.0.0.1:3306/test?user=root, com.mysql:mysql-connector-j",
            "jdbc:mariadb://127.0.0.1:3306/test?user=root, org.mariadb.jdbc:mariadb-java-client",
            "jdbc:h2:mem:missing-driver, com.h2database:h2"})
    void aMissingDriverNamesTheDependencyToAdd(String uri, String dependency) throws Exception {
        URL[] classPath = {codeSource(LockStore.class), codeSource(JdbcLockStoreProvider.class),
                codeSource(com.zaxxer.hikari.HikariDataSource.class), codeSource(org.slf4j.Logger.class)};
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader app = new URLClassLoader("no-driver-app", classPath,
                ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(app);
            Method open = app.loadClass(LockStore.class.getName()).getMethod("open", String.class);
            Throwable thrown = catchThrowable(() -> open.invoke(null, uri));
            Throwable cause = thrown instanceof InvocationTargetException ite ? ite.getCause() : thrown;

            assertThat(cause).hasMessageContaining("add the dependency " + dependency)
                    .hasMessageNotContaining("\n");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static URL codeSource(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toUri().toURL();
    }
}
