package io.distlock.redis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fixture one test class owns (servers, proxies, stores): made before its first test, closed after its last.
 * Register it as {@code @RegisterExtension static final ClassFixture<T> name = new ClassFixture<>(T::new)}.
 *
 * @param <T> the fixture
 */
final class ClassFixture<T extends AutoCloseable> implements BeforeAllCallback, AfterAllCallback {

    /** Makes the fixture; may throw whatever starting its servers throws. */
    @FunctionalInterface
    interface Maker<T> {
        T make() throws Exception;
    }

    private final Maker<T> maker;
    private T fixture;

    ClassFixture(Maker<T> maker) {
        this.maker = maker;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        fixture = maker.make();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** The fixture, while the class's tests run. */
    T get() {
        return fixture;
    }
}
