// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseData} from "./CaseStore.sol";
import {CaseState} from "../interfaces/CourtTypes.sol";
import {ICaseFactory} from "../interfaces/ICaseFactory.sol";

/// @title The rules every role of a case applies (internal: compiled into each of them).
library CaseRules {
    uint8 internal constant NO_VOTE = 0;
    uint8 internal constant FOR_PLAINTIFF = 1;
    uint8 internal constant FOR_DEFENDANT = 2;

    /// @dev The panel size of the current round.
    function panelSize(CaseData storage s) internal view returns (uint256) {
        return s.round == 1 ? s.terms.panelSize : s.terms.appealPanelSize;
    }

    /// @dev Hidden votes: the current round's reveal deadline (0 before a panel is seated).
    function revealDeadline(CaseData storage s) internal view returns (uint64) {
        uint64 commitBy = s.commitDeadline;
        return commitBy == 0 ? 0 : commitBy + s.terms.revealPeriod;
    }

    function servedInRound(CaseData storage s, uint8 r, address who) internal view returns (bool) {
        address[] storage seated = s.panel[r];
        for (uint256 i = 0; i < seated.length; i++) {
            if (seated[i] == who) return true;
        }
        return false;
    }

    /// @dev Moves the case to `next` and tells the factory (which emits CaseChanged and keeps its indexes).
    function moveTo(CaseData storage s, CaseState next) internal {
        CaseState prev = s.state;
        s.state = next;
        ICaseFactory(s.factory).onCaseChanged(prev, next);
    }

    /// @dev Tells the factory the case changed without changing state (a vote, evidence, a re-armed draw).
    function touched(CaseData storage s) internal {
        ICaseFactory(s.factory).onCaseChanged(s.state, s.state);
    }
}
