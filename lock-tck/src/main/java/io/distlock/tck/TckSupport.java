package io.distlock.tck;

/** The one thing every group of rules needs: the context of the store under test. */
public interface TckSupport {

    /** The context of the store under test. */
    TckContext tck();
}
