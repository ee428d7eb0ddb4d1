// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseTerms} from "./CourtTypes.sol";

/// @notice The CourtRegistry read the arbitrator prices a dispute with.
interface IArbitrationCourts {
    /// @notice What a case filed in `courtId` copies.
    /// @param courtId The court; 0 for the General court.
    /// @return court The court the case is filed in.
    /// @return appealCourt The court whose pool seats its appeal.
    /// @return terms The court's terms now.
    function caseConfig(uint96 courtId) external view returns (uint96 court, uint96 appealCourt, CaseTerms memory terms);
    /// @notice How many judges a draw in `courtId` could seat now, leaving out `a` and `b`.
    /// @param courtId The court.
    /// @param a One party.
    /// @param b The other.
    /// @return n The judges beyond the parties.
    function seatableJudges(uint96 courtId, address a, address b) external view returns (uint256 n);
}
