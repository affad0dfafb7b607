package io.github.waitingroom.servlet;

import io.github.waitingroom.http.Gate;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Times an asynchronous request that the gate passed to the application, to its end: the room
 * learns its time and its response's status when it completes ({@link Gate#answered}), and that it
 * failed when it times out or errs ({@link Gate#failedToAnswer}), once either way (a timeout is
 * followed by the completion of the error response). When the application starts another
 * asynchronous cycle, the listener follows it there.
 */
final class AsyncTiming implements AsyncListener {
  private static final AtomicIntegerFieldUpdater<AsyncTiming> DONE =
      AtomicIntegerFieldUpdater.newUpdater(AsyncTiming.class, "done");

  private final Gate gate;
  private final HttpServletResponse response;
  private final long startNanos;
  /** 1 once the request is timed. */
  private volatile int done;

  private AsyncTiming(Gate gate, HttpServletResponse response, long startNanos) {
    this.gate = gate;
    this.response = response;
    this.startNanos = startNanos;
  }

  /**
   * Times the asynchronous request {@code request} to its end.
   *
   * @return {@code false} when its asynchronous cycle ended before the listener could be added:
   *     the caller times it now
   */
  static boolean listen(HttpServletRequest request, HttpServletResponse response, Gate gate, long startNanos) {
    try {
      request.getAsyncContext().addListener(new AsyncTiming(gate, response, startNanos));
      return true;
    } catch (IllegalStateException e) {
      return false; // completed meanwhile, on another thread
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    if (DONE.compareAndSet(this, 0, 1)) {
      gate.answered(startNanos, response.getStatus());
    }
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    failed();
  }

  @Override
  public void onError(AsyncEvent event) {
    failed();
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // A new asynchronous cycle keeps only the listeners that add themselves again.
    event.getAsyncContext().addListener(this);
  }

  private void failed() {
    if (DONE.compareAndSet(this, 0, 1)) {
      gate.failedToAnswer(startNanos);
    }
  }
}
