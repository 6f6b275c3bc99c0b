"""The one place that wires the rig together: inputs → engine → display.

:class:`Rig` owns the engine service, the toss inputs, the camera with its roll tracker and
card reader, and (in simulation mode) the :class:`rig.app.simulator.Simulator`; :func:`rig.app.serve.serve`
puts the web app on a socket and tells systemd it is ready. The real rig and simulation mode run the same
code: simulation only swaps the pin factory for gpiozero's ``MockFactory`` and the camera
for the virtual table.

What goes where:

- a toss input's press → a ``toss`` event (``t_us`` = the edge time), except the roller's own
  input, which starts the turn, and during the copy choice cycles through the players
  (a hold of ``hold_confirm_s`` confirms);
- the roll tracker's settled rolls → ``roll_settled`` events (the game's turn flow may take them
  itself: ``Game.on_camera_event``, e.g. whole sets of dice, evidence, three-rolls violations);
- each camera frame → the game's own ``on_frame`` (card reveals, answer timeouts);
- camera loss and input faults → notices on the display (``GET /api/rig``), the game untouched.

No game is named here: the current game's :class:`rig.registry.Game` (``rig.games.<name>``)
picks the roll tracker's reader, its dice count, the phases the camera watches in, the options
from the config and, in simulation, the dice the virtual table throws.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rig.config import RigConfig
from rig import registry
from rig.app.modes import MODES, SIM_FRAME, SIM_MAX_FPS, sim_seats
from rig.app.notices import Notice, Notices
from rig.app.seats import Seats
from rig.errors import RigError, RunError  # noqa: F401  (RunError: re-exported, rig.app.runner.RunError)

if TYPE_CHECKING:
    from rig.app.simulator import Simulator

log = logging.getLogger(__name__)


class _Gate:
    """The roll tracker, fed only while dice are being rolled (the watcher calls ``feed``)."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.open = True

    def feed(self, t_us, frame):
        return self.tracker.feed(t_us, frame) if self.open else []

    def reset_motion(self) -> None:
        self.tracker.reset_motion()

    def __getattr__(self, name):
        return getattr(self.tracker, name)


class Rig(Notices, Seats):
    """The running rig: engine, toss inputs, camera, card reader; in simulation mode also :attr:`sim`.

    ``with Rig(config, mode="sim", data_dir=tmp) as rig: rig.app()`` — ``start`` opens the
    database, the inputs and the camera (a taken pin raises :class:`~rig.errors.HardwareError`
    naming it; a live camera missing at start is reported lost and retried, so the service never
    restart-loops over a loose cable) and ``close`` releases them. In simulation
    mode ``pin_factory`` defaults to a fresh gpiozero ``MockFactory`` and the camera is the
    virtual table; ``realtime=False`` renders it as fast as possible (tests).
    """

    def __init__(self, config: RigConfig, *, mode: str = "sim", data_dir=None, seed: int | None = None,
                 realtime: bool = True, pin_factory=None, camera: bool = True, card_frames: int = 3,
                 sim_fps: float | None = None) -> None:
        from rig.engine.paths import resolve_data_dir

        if mode not in MODES:
            raise RunError(f"unknown mode {mode!r} (modes: {', '.join(MODES)})")
        self.config = config
        self.mode = mode
        self.data_dir = resolve_data_dir(data_dir, configured=config.data_dir)
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
        self.realtime = realtime
        # the virtual table renders at the configured camera rate, at most 30 fps
        self.sim_fps = sim_fps if sim_fps is not None else min(float(config.camera.fps), SIM_MAX_FPS)
        self.use_camera = camera
        self.pin_factory = pin_factory
        self.service = None
        self.inputs = None
        self.source = None
        self.watcher = None
        self.tracker = None
        self.sim: Simulator | None = None
        self.desk = None
        self.publisher = None  # rig.league.publisher.Publisher when the config has [league]
        self.profile = None
        self.profile_name: str | None = None
        self.card_frames = card_frames
        self.cards = None  # the reveal's card reader state (rig.vision.cards.CardReveal)
        self.cards_lock = threading.RLock()  # the camera thread feeds it, a player's answer (HTTP) resolves it
        self.asked: dict[str, Any] = {}  # what an open question's answer needs, by its notice key (the game's hooks)
        self.evidence = None  # rig.evidence.EvidenceStore: each settled roll's frame
        self._notices: dict[str, Notice] = {}
        self._lock = threading.RLock()
        self._phase = None
        self._turn_key = None
        self.roll_started_us: int | None = None  # the tracker's roll_started of the roll under way
        self.resuming: tuple[int, int] | None = None  # (rolls, dice) of a turn under way at start
        self.game_name = registry.DEFAULT  # the current game's kind: picks the reader and the virtual table's dice
        self._reader = None
        self._white_dice = 2
        self._faces: tuple[str, ...] = ()
        self.timed_out: tuple | None = None  # the round an answer timeout was sent for (Game.on_frame)
        self._started = False
        #: the toss inputs, one per seat in order: the config's players, and in simulation mock
        #: inputs for the seats up to MAX_SEATS the config has none for
        self.seat_inputs = sim_seats(config.players) if mode == "sim" else tuple(config.players)

    def __repr__(self) -> str:
        state = "running" if self._started else "stopped"
        return f"<Rig {self.mode} {state} data_dir={str(self.data_dir)!r}>"

    # -- life cycle ------------------------------------------------------------------------
    def __enter__(self) -> Rig:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def start(self) -> Rig:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        self._started = True
        return self

    def _start(self) -> None:
        from rig.engine import EngineService
        from rig.hardware.tosses import NoGPIOError, TossInputs

        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"cannot create the data directory {self.data_dir}: {exc.strerror}") from None
        self.profile, self.profile_name = self._load_profile()
        from rig.evidence import EvidenceStore

        self.evidence = EvidenceStore.from_config(self.data_dir, self.config)
        defaults = {game.name: game.defaults(self.config) for game in registry.games()}
        self.service = EngineService.open(self.data_dir, hold_us=round(self.config.tosses.hold_confirm_s * 1e6),
                                          admit=self.admit_game,
                                          game_defaults={k: v for k, v in defaults.items() if v} or None)
        self._ensure_game()
        self._start_league()
        turn = self.service.state()["turn"]
        game = self.service.state()["game"]
        if (turn and turn["rolls"] and self.mode == "real" and game
                and registry.get(game["game"]).resumes_dice):  # dice in the box
            self.resuming = (turn["rolls"], len(turn["dice"]))
        factory = self.pin_factory
        if self.mode == "sim" and factory is None:
            from gpiozero.pins.mock import MockFactory

            factory = self.pin_factory = MockFactory()
        try:
            self.inputs = TossInputs.from_config(replace(self.config, players=self.seat_inputs), pin_factory=factory,
                                                 on_toss=self._on_toss,
                                                 on_release=self._on_release, on_fault=self._on_fault)
        except NoGPIOError as exc:
            raise RunError(
                "real mode needs the toss inputs' GPIO pins, and this machine has no GPIO: gpiozero could "
                f"not load a pin factory ({exc.tried}). On a Raspberry Pi install python3-lgpio; "
                "to try the rig without camera and buttons, use `rig run --sim`"
            ) from None
        if self.use_camera:
            self._start_camera()
        if self.mode == "sim":
            from rig.app.simulator import Simulator

            self.sim = Simulator(self)
        self.desk = self._make_desk()
        self._follow_state(self.service.state())

    def _start_league(self) -> None:
        """With ``[league]`` in the config: publish the event log to the league's broker (else nothing runs)."""
        if self.config.league is None:
            return
        from rig.engine.paths import database_path
        from rig.league.publisher import publisher_for

        self.publisher = publisher_for(self.config, database_path(self.data_dir), self.service).start()

    def _ensure_game(self) -> None:
        """A first start (empty database) opens a game with the configured players, so the board shows one.

        A two-player game seats the first two configured players.
        """
        from rig.engine.extra import seats_for

        state = self.service.state()
        if state["game"] is None:
            players = [p.name for p in self.config.players][: seats_for(self.config.game.name)]
            self.service.submit({"type": "game_started", "source": "rig", "game": self.config.game.name,
                                 "players": players,
                                 "options": self.game_options()})

    def game_options(self) -> dict:
        """A first game's options from the config's ``[game]`` table (the game's own choice)."""
        return registry.get(self.config.game.name).config_options(self.config.game)

    def _load_profile(self):
        from rig.profile_cache import load_profile
        from rig.vision.profile import default_profile_path

        path = self.config.profile
        if path is not None and not Path(path).exists():
            raise RunError(f"calibration profile {path} not found: calibrate first (rig calibrate, "
                           "or the calibration page), or remove 'profile' from the config")
        if path is None:
            path = default_profile_path()  # the built-in colours, fitted on the virtual table
            if not path.exists() and self.use_camera:
                raise RunError(f"no calibration profile: the built-in {path} is missing; "
                               "name one in the config ('profile = ...')")
            if not path.exists():
                return None, None
        return load_profile(path), Path(path).stem

    def _start_camera(self) -> None:
        from rig.hardware.camera import CameraWatcher, open_source
        from rig.vision.rolls import RollTracker

        cam = self.config.camera
        if self.mode == "sim":
            width, height = SIM_FRAME
            self.source = open_source("virtual", width=width, height=height, fps=self.sim_fps, seed=self.seed,
                                      realtime=self.realtime)
        else:
            self.source = open_source(cam.source, profile=self.profile, **cam.options())
        self.tracker = _Gate(RollTracker(read=self.read_dice))
        self.watcher = CameraWatcher(self.source, self.tracker, self._on_camera_event, on_frame=self._on_frame)
        # real mode: a camera missing at start is reported lost and retried, the rig runs on
        self.watcher.start(missing_ok=self.mode == "real")

    def close(self) -> None:
        """Stop the camera and the inputs, close the database (safe to call twice)."""
        self._started = False
        for closer in (self.watcher, self.inputs):
            if closer is not None:
                try:
                    closer.close()
                except Exception:  # keep closing the rest
                    log.exception("closing %r failed", closer)
        self.watcher = self.inputs = None
        if self.publisher is not None:
            self.publisher.close()
            self.publisher = None
        if self.source is not None:
            self.source.close()
            self.source = None
        if self.service is not None:
            self.service.close()
            self.service = None

    # -- the web app -----------------------------------------------------------------------
    def app(self, *, pin: str | None = None, lan: bool = False, hosts=()):
        from rig.display.app import create_app

        info = {"mode": self.mode, "players": [p.name for p in self.config.players], "lan": lan,
                "hold_confirm_s": self.config.tosses.hold_confirm_s}
        return create_app(self.service, sim=self.sim, pin=pin, calibration=self.desk, info=info,
                          status=self.status, evidence=self.evidence, hosts=hosts, answer=self.answer)

    def status(self) -> dict:
        """What ``GET /api/rig`` shows: mode, camera, inputs, notices."""
        with self._lock:
            notices = [n.to_dict() for n in self._notices.values()]
        watcher = self.watcher
        ended = bool(watcher and watcher.ended)
        if self.use_camera and self._started and ended:
            notices.append(Notice("camera-ended", f"Replay finished: {self.source.name} has played to its end "
                                  "(loop = true under [camera] plays it again and again)", "info").to_dict())
        elif self.use_camera and self._started and not (watcher and watcher.running):
            notices.append(Notice("camera-thread", "The camera reader stopped: see the rig's log", "bad").to_dict())
        loss = getattr(self.service.log, "loss", None) if self.service is not None else None
        if loss:  # acknowledged events the log no longer holds: never silent
            from rig.engine.log import loss_text

            notices.append(Notice("log-loss", loss_text(loss, self.service.log.path), "bad").to_dict())
        outage = self.service.outage if self.service is not None else None
        if outage:
            waiting = len(self.service.backlog)
            kept = f" — {waiting} input(s) kept until it works again" if waiting else ""
            notices.append(Notice("storage", f"Cannot write the game log: {outage}{kept}", "bad").to_dict())
        camera = {"source": self.source.name if self.source else None,
                  "connected": bool(watcher and watcher.running and not watcher.lost),
                  "frames": watcher.frames_seen if watcher else 0, "ended": ended}
        if self.sim is not None:
            camera["connected"] = camera["connected"] and not self.sim.camera_dropped
        status = {"mode": self.mode, "camera": camera, "profile": self.profile_name, "notices": notices,
                  "seats": self.seats()}
        if self.publisher is not None:
            status["league"] = self.publisher.link()
        return status

    def healthy(self) -> bool:
        """The input thread and (if used) the camera watcher are alive: what the watchdog vouches for.

        A replay that has played to its end is fine: that is how a recording stops.
        """
        inputs_ok = self.inputs is not None and self.inputs.alive
        watcher = self.watcher
        camera_ok = not self.use_camera or (watcher is not None and (watcher.running or watcher.ended))
        return self._started and inputs_ok and camera_ok

    # -- inputs → engine -------------------------------------------------------------------
    def _on_toss(self, toss) -> None:
        player = self.seats().get(toss.player)
        if player is None:
            log.info("%s's input pressed, but no player of this game sits there", toss.player)
            return
        for result in self.service.press(player, toss.t_us, source=toss.source):
            if not result["ok"]:
                log.info("refused %s: %s", result["event"]["type"], result["reason"])
        self._follow_state(self.service.state())

    def _on_release(self, release) -> None:
        player = self.seats().get(release.player)
        if player is not None:
            self.service.release(player, release.t_us, release.held_us, source="gpio")
            self._follow_state(self.service.state())

    def _on_fault(self, fault) -> None:
        key = f"input:{fault.player}"
        if fault.kind == "recovered":
            self.notice(key, None)
        else:
            self.notice(key, f"{fault.player}'s input ({fault.pin}) is {fault.kind}: {fault.detail}", "bad")

    # -- camera → engine -------------------------------------------------------------------
    @property
    def game(self) -> registry.Game:
        """The current game's kind (its :class:`rig.registry.Game`)."""
        return registry.get(self.game_name)

    def read_dice(self, frame, *, thrown=None):
        """Read a frame with the current game's dice reader (and the current calibration profile); ``thrown``:
        as the tracker gives it (:mod:`rig.vision.readers`)."""
        reader = self._reader
        if reader is None:
            from rig.vision.kept_size import FILE_NAME, KeptDieSize

            kept = KeptDieSize(self.data_dir / FILE_NAME, self.game_name, self.profile_name or "")
            reader = self._reader = self.game.reader(profile=self.profile, kept=kept)
        reading = reader(frame, thrown=thrown)
        self._watch_light(getattr(reading, "light", None))
        return reading

    def use_game(self, state: dict) -> None:
        """Follow the current game's kind: its reader, its tracker settings, its dice on the virtual table."""
        game = state.get("game") if state else None
        name = game["game"] if game else registry.DEFAULT
        options = (game.get("options") or {}) if game else {}
        white = options.get("white_dice", 2)
        faces = tuple(options.get("faces") or ())
        with self._lock:
            if (name, white, faces) == (self.game_name, self._white_dice, self._faces):
                return
            self.game_name, self._white_dice, self._faces, self._reader = name, white, faces, None
            self._switch_game(name, white, faces)

    def _switch_game(self, name: str, white: int, faces: tuple[str, ...]) -> None:
        if self.tracker is not None:
            from dataclasses import replace

            tracker = self.tracker.tracker
            tracker.settings = replace(tracker.settings, dice=registry.get(name).dice_for({"white_dice": white}))
            tracker.resume(_empty_reading(), 0)
        if self.mode == "sim" and self.source is not None and hasattr(self.source, "set_game"):
            try:
                self.source.set_game(name, white_dice=white, faces=faces or None)
            except RigError as exc:  # a face map with colours the virtual table cannot draw
                self.notice("virtual-table", str(exc), "bad")
                self.source.set_game(name, white_dice=white)

    def submit_event(self, event: dict) -> dict | None:
        """Submit a camera-side event; the state after it, or None (refused, logged)."""
        from rig.engine import EventRefused

        try:
            state = self.service.submit(event, default_source="camera", keep=True)
        except EventRefused as exc:
            log.info("refused %s: %s", event.get("type"), exc.reason)
            return None
        self._follow_state(state)
        return state

    def _on_camera_event(self, event) -> None:
        kind = getattr(event, "type", None)
        if kind == "roll_started":
            self.roll_started_us = event.t_us
        elif self.game.on_camera_event(self, event):
            return  # the game's own turn flow took it
        elif kind == "roll_settled":  # the common flow: every settled roll is the game's throw
            faces = [str(die.face) for die in event.reading.dice]
            reading = event.reading.to_dict() if hasattr(event.reading, "to_dict") else None
            if event.new_dice == 0:  # the same dice re-read (surer now): a correction, if the game still takes one
                if faces:
                    self.submit_event({"type": "correction", "t_us": event.t_us, "what": "dice", "faces": faces})
                return
            payload = {"type": "roll_settled", "t_us": event.t_us, "dice": faces, "reading": reading}
            if self.roll_started_us is not None:
                payload["started_us"] = self.roll_started_us
            self.submit_event(payload)
        elif kind == "camera_lost":
            self.notice("camera", f"Camera lost ({event.reason}): retrying — the game is safe", "bad")
        elif kind == "camera_recovered":
            self.notice("camera", None)

    def keep_evidence(self, state: dict | None, t_us: int, reading: dict | None) -> None:
        """Keep the frame the roll settled on (the watcher's newest: the tracker has just seen it)."""
        watcher, store = self.watcher, self.evidence
        turn = state.get("turn") if state else None
        if store is None or watcher is None or watcher.latest is None or not turn or not turn["rolls"]:
            return
        try:
            store.save_roll(state["game"]["id"], turn["number"], turn["rolls"], watcher.latest[1], reading, t_us=t_us)
        except RigError as exc:
            self.notice("evidence", f"Evidence not kept: {exc}", "warn")

    def _on_frame(self, t_us: int, frame) -> None:
        state = self.service.state() if self.service else None
        if state is None:
            return
        self._follow_state(state)
        self.game.on_frame(self, t_us, frame, state)

    def _follow_state(self, state: dict) -> None:
        """Keep the camera's side in step with the game: gate the tracker, new turns, the reveal."""
        self.use_game(state)
        turn = state.get("turn") if state else None
        phase = turn["phase"] if turn else None
        key = (state["game"]["id"], turn["number"]) if turn and state.get("game") else None
        with self._lock:
            new_turn = key != self._turn_key
            changed = phase != self._phase
            before = self._phase
            self._turn_key, self._phase = key, phase
        if new_turn and self.tracker is not None:
            self.tracker.new_turn()
        if changed:
            if phase == "reveal" and (new_turn or before != "review"):
                # a fresh reveal (the copy choice made): a card already in view counts. Back from
                # the review by an undo, the card in view was the one undone: it is not read again.
                with self.cards_lock, self._lock:
                    self.cards = None
                    self._notices = {k: n for k, n in self._notices.items() if not n.ask}  # its questions with it
            if self.tracker is not None:
                phases = self.game.tracker_phases
                self.tracker.open = (phase not in (None, "over")) if phases is None else phase in phases
                self.tracker.reset_motion()

    def _make_desk(self):
        from rig.app.calibration_desk import CalibrationDesk

        return CalibrationDesk(self) if self.use_camera else None

    def use_profile(self, profile, name: str) -> None:
        """Read with ``profile`` from the next frame on (the calibration page's save/restore)."""
        with self._lock:
            self.profile, self.profile_name, self._reader = profile, name, None


def _empty_reading():
    from rig.vision.rolls import EmptyReading

    return EmptyReading()
