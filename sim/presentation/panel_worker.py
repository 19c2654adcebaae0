"""How a control panel runs its redraws: at once, or in a worker thread where the latest request wins."""

import threading
import traceback
from collections.abc import Callable

from sim.model.errors import InputError


def main_thread_poster() -> Callable | None:
    """`add_callback` of the running kernel's event loop (runs a function on its main thread), or None."""
    from IPython import get_ipython  # IPython comes with ipywidgets

    loop = getattr(getattr(get_ipython(), "kernel", None), "io_loop", None)
    return getattr(loop, "add_callback", None)


class PanelWorker:
    """`compute(settings)` (any thread), then `show` or `failed` (main thread); `background` None: in a
    running kernel only; `dropped`: results a newer request overtook."""

    def __init__(self, compute: Callable, show: Callable, failed: Callable, background: bool | None = None):
        self._compute, self._show, self._failed = compute, show, failed
        post = main_thread_poster()
        self.background = post is not None if background is None else bool(background)
        self._post = post or (lambda function, *args: function(*args))  # no kernel: show from the worker
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._wanted = None
        self._pending = []  # results computed and posted to the main thread, not yet delivered
        self._delivered = threading.Condition(self._lock)
        self._generation = 0
        self._running = False
        self.dropped = 0

    def request(self, settings) -> None:
        """Redraw for `settings`: at once, or when the worker is free, replacing any request waiting."""
        if not self.background:
            try:
                result = self._compute(settings)
            except InputError as error:
                self._failed(settings, error)
                return
            self._show(settings, result)
            return
        with self._lock:
            self._wanted, self._generation = settings, self._generation + 1
            if self._running:
                return
            self._running = True
            self._idle.clear()
        threading.Thread(target=self._run, name="panel redraw", daemon=True).start()

    def wait(self, timeout: float | None = 60) -> None:
        """Return once the last result is shown or refused; TimeoutError after `timeout` seconds."""
        if not self._idle.wait(timeout):
            raise TimeoutError(f"the panel was still computing after {timeout} s")
        if threading.current_thread() is threading.main_thread():
            self._deliver_pending()
            return
        with self._delivered:
            if not self._delivered.wait_for(lambda: not self._pending, timeout):
                raise TimeoutError(f"the panel's last result was not shown after {timeout} s")

    def _run(self) -> None:
        while True:
            with self._lock:
                settings, generation, self._wanted = self._wanted, self._generation, None
                if settings is None:
                    self._running = False
                    self._idle.set()
                    return
            try:
                result, error = self._compute(settings), None
            except Exception as caught:  # shown in the panel: a worker thread has no cell to raise in
                result, error = None, caught
                error.panel_traceback = traceback.format_exc()
            with self._lock:
                overtaken = self._wanted is not None
            if overtaken:
                self.dropped += 1
                continue
            with self._lock:
                self._pending.append((settings, generation, result, error))
            self._post(self._deliver_pending)

    def _deliver_pending(self) -> None:
        """Show (or refuse) the results posted so far, on the main thread."""
        while True:
            with self._lock:
                if not self._pending:
                    self._delivered.notify_all()
                    return
                item = self._pending[0]
            try:
                self._deliver(*item)
            finally:  # taken off only once shown: a waiter on another thread returns after that
                with self._lock:
                    self._pending.remove(item)

    def _deliver(self, settings, generation: int, result, error) -> None:
        if generation != self._generation:  # a newer request came in while this one travelled
            self.dropped += 1
        elif error is None:
            self._show(settings, result)
        else:
            self._failed(settings, error)
