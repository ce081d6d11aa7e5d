"""The shell around the screens (main.kv's RootLayout): the navigation tabs, Undo and Redo, laid out for
the device class and orientation (`companion.app.navigation.nav_plan`) and laid out again when the
window turns.

The widgets stay the same in every layout (kv ids `nav`, `undo`, `redo`, `manager`, `message`, and
`nav_<screen>` for each tab): only their place changes. A tab the bar has no room for moves into the
"More" menu (`more`), a drop-down list under (or over) its tab, so a tab is always one widget, found by
its id whether it sits in the bar or in the menu.
"""
from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.dropdown import DropDown
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.togglebutton import ToggleButton

from companion.app.navigation import BOTTOM, TOP, NavPlan, nav_plan
from companion.app.screens import SCREENS

MENU_WIDTH_DP = 240


class NavButton(ToggleButton):
    """The tab of one registered screen: a tap shows it."""

    screen_name = StringProperty("")


class MoreButton(ToggleButton):
    """The "More" tab: opens the menu of the screens without a tab of their own; down while one of
    them is shown."""

    menu_open = BooleanProperty(False)


class RootLayout(FloatLayout):
    plan = ObjectProperty(NavPlan(TOP, tuple(SCREENS)))

    def on_kv_post(self, *_):
        self.nav_buttons = {button.screen_name: button for button in self.ids.nav.children
                            if isinstance(button, NavButton)}
        # held here: out of the tree (no "More" in this layout) a kv id alone would let it be collected
        self.more_button = self.ids.more.__self__
        self.menu = DropDown(auto_width=False, width=dp(MENU_WIDTH_DP))
        self.menu.bind(on_dismiss=self._menu_closed)
        self.shown_screen = ""
        self.arranged = False  # the kv's bar holds every tab and "More": the first arrangement always runs

    def _menu_closed(self, *_) -> None:
        self.more_button.menu_open = False
        self.mark(self.shown_screen)

    def arrange(self, device: str, portrait: bool) -> None:
        """Put the tabs, "More", Undo and Redo where the layout of `device` held upright or not wants them."""
        plan = nav_plan(device, portrait, SCREENS)
        if self.arranged and plan == self.plan:
            return
        self.close_menu()
        frame, bar, nav, actions, manager = (self.ids[name].__self__ for name in
                                             ("frame", "bar", "nav", "actions", "manager"))
        more = self.more_button
        for widget in (bar, nav, actions, manager, more, *self.nav_buttons.values()):
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
        for name in plan.tabs:
            nav.add_widget(self.nav_buttons[name])
        if plan.more:
            nav.add_widget(more)
        for name in plan.more:
            self.menu.add_widget(self.nav_buttons[name])
        if plan.place == BOTTOM:  # Undo / Redo on top, the tabs under the thumb
            bar.add_widget(actions)
            for widget in (bar, manager, nav):
                frame.add_widget(widget)
        else:
            for widget in (actions, nav) if plan.place != TOP else (nav, actions):
                bar.add_widget(widget)
            frame.add_widget(bar)
            frame.add_widget(manager)
        self.plan, self.arranged = plan, True
        self.mark(self.shown_screen)

    def mark(self, name: str) -> None:
        """Show `name`'s tab down (and "More" when its tab is in the menu)."""
        self.shown_screen = name
        for screen, button in self.nav_buttons.items():
            button.state = "down" if screen == name else "normal"
        self.more_button.state = "down" if name in self.plan.more or self.more_button.menu_open else "normal"

    def open_menu(self) -> bool:
        """Open the "More" menu; False when this layout has none or it is open already."""
        more = self.more_button
        if not self.plan.more or more.menu_open or more.get_root_window() is None:
            return False
        more.menu_open = True
        self.menu.open(more)
        self.mark(self.shown_screen)
        return True

    def close_menu(self) -> None:
        if self.more_button.menu_open:
            self.menu.dismiss()  # then `_menu_closed`
        else:
            self.mark(self.shown_screen)

    def reveal(self, widget) -> bool:
        """Open the menu that holds `widget` (a tab without room in the bar); True if it had to."""
        node = widget
        while node is not None and node is not node.parent:
            if node is self.menu:
                return self.open_menu()
            node = node.parent
        return False
