"""The Restaurants page through AppTest: the restaurant filling up with its two representations,
its controls and settings, and the note's Figure 2 on a chosen corpus."""
import re

PAGE = "pages/restaurants.py"


def metrics(at):
    return {m.label: m.value for m in at.metric}


def test_customers_arrive_one_step_at_a_time_and_reset(open_page):
    at = open_page(PAGE)
    assert metrics(at)["Customers n"] == "0" and metrics(at)["Tables T"] == "0"
    for _ in range(3):
        at.button(key="rest_step").click().run()
    arrivals = at.session_state.rest_race
    assert arrivals.customers == 3 and metrics(at)["Customers n"] == "3"
    assert metrics(at)["Tables T"] == str(arrivals.tables)
    assert float(metrics(at)["log P(seating, dishes)"]) == round(arrivals.log_probability(), 2)
    drawn = next(m.value for m in at.markdown if "tb-room" in m.value)
    assert drawn.count("class='tb-table'") == arrivals.tables
    assert drawn.count("<span class='tb-dot") == 3 and drawn.count("tb-dot tb-new") == 1
    histogram = at.code[0].value
    assert sum(int(n) for n in re.findall(r"\d+: (\d+)", histogram)) == arrivals.tables
    at.button(key="rest_play").click().run()
    at.run()
    assert at.session_state.rest_race.customers > 3
    at.button(key="rest_pause").click().run()
    assert not at.session_state.rest_playing
    at.button(key="rest_reset").click().run()
    assert metrics(at)["Customers n"] == "0"


def test_a_refused_alpha_keeps_the_restaurant_and_says_why(open_page):
    at = open_page(PAGE)
    at.button(key="rest_step").click().run()
    at.number_input(key="rest_alpha").set_value(0.0).run()
    assert any("α must be > −d" in e.value for e in at.error)
    assert at.session_state.rest_race.customers == 1
    at.radio(key="rest_process").set_value("py").run()  # d = 0.5: α = 0 is allowed
    assert not at.error and at.session_state.rest_race.customers == 0
    assert at.session_state.rest_race.explicit.params[1] == 0.5


def test_a_preset_sets_the_pitman_yor_restaurant(open_page):
    at = open_page(PAGE, preset="pitman-yor-d-0-8-tables-keep-opening-a-power-law")
    assert at.session_state.rest_process == "py" and at.session_state.rest_discount == 0.8
    assert at.session_state.rest_race.total_sweeps == 400
    assert not at.warning


def test_a_bad_address_parameter_gets_a_notice_and_its_default(open_page):
    at = open_page(PAGE, customers="lots", dishes=40)
    notice = at.warning[0].value
    assert "`customers=lots`" in notice and "`dishes=40`" in notice
    assert at.session_state.rest_race.total_sweeps == 200


def test_figure_two_draws_every_alpha_and_follows_the_corpus(open_page):
    at = open_page(PAGE)
    charts = [c for c in at.get("vega_lite_chart") if "Tables against frequency" in c.proto.spec]
    assert len(charts) == 1
    assert "1,433 word tokens" in " ".join(c.value for c in at.caption)
    at.radio(key="rest_fig_source").set_value("tagged").run()
    assert "simple sentences" in " ".join(c.value for c in at.caption).lower()
    at.multiselect(key="rest_alphas").set_value([]).run()
    assert any("at least one α" in i.value for i in at.info)
    assert not at.exception
