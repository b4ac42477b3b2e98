"""GoList keeps Go's container/list semantics: the rule behind the v1.28.1 bug is that a removed element's
Next() is nil."""

from webapp.model.golist import Element, GoList


def values(lst: GoList) -> list:
    return [e.value for e in lst]


def test_push_back_front_back_and_len():
    lst = GoList()
    assert (lst.front(), lst.back(), len(lst)) == (None, None, 0)
    a, b = lst.push_back("a"), lst.push_back("b")
    assert (lst.front(), lst.back(), len(lst)) == (a, b, 2)
    assert a.next() is b and b.next() is None
    assert values(lst) == lst.values() == ["a", "b"]


def test_a_removed_element_has_no_next():
    lst = GoList()
    a, b, c = (lst.push_back(v) for v in "abc")
    assert lst.remove(b) == "b"
    assert b.next() is None and not b.in_list
    assert a.next() is c and values(lst) == ["a", "c"] and len(lst) == 2


def test_removing_an_element_of_no_list_changes_nothing():
    lst = GoList()
    lst.push_back("a")
    stranger = Element("x")
    assert lst.remove(stranger) == "x"
    other = GoList()
    foreign = other.push_back("y")
    lst.remove(foreign)
    assert values(lst) == ["a"] and values(other) == ["y"] and foreign.in_list


def test_extend_links_like_push_back():
    lst = GoList()
    first = lst.push_back(0)
    elements = lst.extend([1, 2, 3])
    assert [e.value for e in elements] == [1, 2, 3] and len(lst) == 4
    assert first.next() is elements[0] and elements[2].next() is None and lst.back() is elements[2]
    lst.remove(elements[1])
    assert values(lst) == [0, 1, 3]
    assert lst.push_back(4).value == 4 and values(lst) == [0, 1, 3, 4]
    assert GoList().extend([]) == []


def test_iteration_stops_when_the_element_just_visited_is_removed():
    lst = GoList()
    lst.extend("abc")
    seen = []
    for e in lst:
        seen.append(e.value)
        if e.value == "a":
            lst.remove(e)  # as Go's `for e := l.Front(); e != nil; e = e.Next()` would stop here
    assert seen == ["a"] and values(lst) == ["b", "c"]
